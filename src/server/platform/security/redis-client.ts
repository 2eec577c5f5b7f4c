/**
 * The Redis connection the rate limits count in (REDIS_URL), set up so that
 * Redis being away never holds a request up: a command fails at once while
 * the connection is down (no offline queue) and within COMMAND_TIMEOUT_MS
 * when Redis hangs, and the limits then let the request through (ADR 018).
 * The client keeps reconnecting in the background; the log says when Redis
 * goes away and when it is back, once each, not at every retry.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";

/** A rate-limit check takes well under a millisecond; longer means Redis is in trouble. */
export const COMMAND_TIMEOUT_MS = 500;
const CONNECT_TIMEOUT_MS = 2000;

export const REDIS_DOWN_MESSAGE =
  "Redis is unreachable: rate limits are not counted until it answers again";
export const REDIS_BACK_MESSAGE = "Redis answers again: rate limits are counted";

/**
 * Connects before the server listens, so its first requests are counted; a
 * Redis that cannot be reached is logged and the site starts all the same.
 * `name` shows in Redis's CLIENT LIST, so an operator can tell who is connected.
 */
export async function connectRedis(
  url: string,
  name: string,
  log: FastifyBaseLogger,
): Promise<Redis> {
  // Loaded only when REDIS_URL is set: a site on one machine never needs it.
  const { Redis } = await import("ioredis");
  const client = new Redis(url, {
    connectionName: name,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
  });
  let down = false;
  client.on("error", (error: Error) => {
    if (down) return;
    down = true;
    log.error({ err: error }, REDIS_DOWN_MESSAGE);
  });
  client.on("ready", () => {
    if (!down) return;
    down = false;
    log.info(REDIS_BACK_MESSAGE);
  });
  // A failed first connection was reported by the "error" listener above.
  await client.connect().catch(() => {});
  return client;
}

/** Ends the connection: politely when it is up, and stops the reconnecting when it is not. */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === "ready") await client.quit();
  else client.disconnect();
}
