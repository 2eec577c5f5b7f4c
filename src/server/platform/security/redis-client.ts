/**
 * A Redis connection for state several instances share (REDIS_URL): the
 * rate limits' counts, the audience's visits. Set up so that Redis being
 * away never holds a request up: a command fails at once while the
 * connection is down (no offline queue) and within COMMAND_TIMEOUT_MS when
 * Redis hangs, and its user then goes on without it (the limits let the
 * request through, ADR 018). The client keeps reconnecting in the
 * background; the log says when Redis goes away and when it is back, once
 * each per connection, in its user's own words, not at every retry.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";
import type { ScrapedGauge } from "../ops/metrics.ts";

/** A rate-limit check takes well under a millisecond; longer means Redis is in trouble. */
export const COMMAND_TIMEOUT_MS = 500;
const CONNECT_TIMEOUT_MS = 2000;

export const REDIS_DOWN_MESSAGE =
  "Redis is unreachable: rate limits are not counted until it answers again";
export const REDIS_BACK_MESSAGE = "Redis answers again: rate limits are counted";

/** What the log says when a connection's Redis goes away and comes back. */
export interface RedisMessages {
  down: string;
  back: string;
}

const RATE_LIMIT_MESSAGES: RedisMessages = { down: REDIS_DOWN_MESSAGE, back: REDIS_BACK_MESSAGE };

/**
 * Connects before the server listens, so its first requests are counted; a
 * Redis that cannot be reached is logged and the site starts all the same.
 * `name` shows in Redis's CLIENT LIST, so an operator can tell who is connected.
 */
export async function connectRedis(
  url: string,
  name: string,
  log: FastifyBaseLogger,
  messages: RedisMessages = RATE_LIMIT_MESSAGES,
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
    log.error({ err: error }, messages.down);
  });
  client.on("ready", () => {
    if (!down) return;
    down = false;
    log.info(messages.back);
  });
  // A failed first connection was reported by the "error" listener above.
  await client.connect().catch(() => {});
  return client;
}

/**
 * The figure an alert watches when Redis goes away: 1 when the connection
 * answers a PING at the scrape, 0 when it does not (it fails at once while
 * the connection is down, within COMMAND_TIMEOUT_MS when Redis hangs). Each
 * instance's own, through the connection its rate limits count on.
 */
export function redisUpGauge(client: Redis): ScrapedGauge<never> {
  return {
    name: "site_redis_up",
    help: "1 when this instance reaches Redis (REDIS_URL) at the scrape, 0 when it does not; absent without REDIS_URL.",
    read: async () => {
      const answered = await client.ping().then(
        () => true,
        () => false,
      );
      return [{ value: answered ? 1 : 0 }];
    },
  };
}

/** Ends the connection: politely when it is up, and stops the reconnecting when it is not. */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === "ready") await client.quit();
  else client.disconnect();
}
