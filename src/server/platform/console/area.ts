/** What each feature's console routes are registered with, and how long a console session lasts. */
import type { Config } from "../config.ts";
import type { DatabaseHandle } from "../db/connection.ts";
import type { SessionLimits } from "./sessions.ts";

export interface AdminAreaOptions {
  config: Config;
  database: DatabaseHandle;
}

export function sessionLimitsOf(config: Config): SessionLimits {
  return {
    idleMs: config.SESSION_IDLE_MINUTES * 60_000,
    maxMs: config.SESSION_MAX_HOURS * 3_600_000,
  };
}
