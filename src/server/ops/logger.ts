/**
 * The server's one logger, made before anything else, so the database pool
 * can report to it from the start and the app logs through it.
 */
import pino, { type Logger } from "pino";
import type { Config } from "../config.ts";

export function createLogger(config: Pick<Config, "LOG_LEVEL">): Logger {
  return pino({ level: config.LOG_LEVEL });
}
