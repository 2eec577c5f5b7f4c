/** What each feature's console routes are registered with, and how long a console session lasts. */
import type { DatabaseHandle } from "../db/connection.ts";
import type { PlatformConfig } from "../server-settings.ts";
import type { SessionLimits } from "./sessions.ts";

/** `Settings`: the feature's own settings slice, read beside the platform's. */
export interface AdminAreaOptions<Settings extends object = object> {
  config: PlatformConfig & Settings;
  database: DatabaseHandle;
}

export function sessionLimitsOf(config: PlatformConfig): SessionLimits {
  return {
    idleMs: config.SESSION_IDLE_MINUTES * 60_000,
    maxMs: config.SESSION_MAX_HOURS * 3_600_000,
  };
}
