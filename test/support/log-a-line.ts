/**
 * Writes one line through the server's logger (platform/ops/logger.ts) to
 * this process's standard output, for a test that reads it as a terminal or
 * a pipe would.
 */
import { createLogger } from "../../src/server/platform/ops/logger.ts";

const { logger, destination } = createLogger({ LOG_LEVEL: "info" });
logger.info({ orders: 3, to: "jane@firm.example" }, "a line for the reader");
await destination.flushed(1000);
