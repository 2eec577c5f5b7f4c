/**
 * Per-address limits on every route that writes, so a script cannot flood
 * the inbox, the subscriber list or the console. A write route may declare
 * its own limit (`config.rateLimit`, e.g. the sign-in's); every other one
 * gets its area's: RATE_LIMIT_PER_MINUTE on the public site,
 * RATE_LIMIT_CONSOLE_PER_MINUTE under /api/admin. A write route that turns
 * its limit off stops the server from starting. The address is request.ip,
 * which takes X-Forwarded-For only from the proxies TRUST_PROXY names
 * (trust-proxy.ts). With REDIS_URL the counters live in Redis, so every
 * instance counts against one limit; when Redis cannot be reached, requests
 * go through uncounted rather than fail (ADR 018).
 */
import rateLimit, { normalizeIP, type RateLimitOptions } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest, RouteOptions } from "fastify";
import fp from "fastify-plugin";
import { ADMIN_API } from "../../../shared/admin/auth.ts";
import { closeRedis, connectRedis, redisUpGauge } from "./redis-client.ts";

export const RATE_LIMITED_MESSAGE = "Too many requests. Please wait a minute and try again.";
export const CONNECTION_GONE_MESSAGE = "The connection closed before the request was read.";
/** What proxies log for a request whose client closed the connection first. */
const CLIENT_CLOSED_REQUEST = 499;

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const DEFAULT_WINDOW = "1 minute";

export type WriteArea = "public" | "console";

/** A route that writes and the limit it was registered with, for the route walk test. */
export interface WriteRoute {
  method: string;
  url: string;
  area: WriteArea;
  /** Requests per address in `timeWindow` (ms or a duration such as "1 minute"). */
  max: number;
  timeWindow: number | string;
  /** Whether the route declared its own limit rather than its area's. */
  own: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    writeRoutes: WriteRoute[];
  }
}

export interface LimitsOptions {
  /** RATE_LIMIT_PER_MINUTE: each public write route, per client address. */
  publicWritesPerMinute: number;
  /** RATE_LIMIT_CONSOLE_PER_MINUTE: each console write route, per client address. */
  consoleWritesPerMinute: number;
  /** REDIS_URL: counters shared by every instance; without it each process counts alone. */
  redisUrl?: string;
  /** REDIS_KEY_PREFIX: sets this site's keys apart from other users of the same Redis. */
  redisKeyPrefix: string;
}

type RouteLimit = { max: number; timeWindow: number | string };

function writeMethods(route: RouteOptions): string[] {
  return [route.method].flat().filter((method) => WRITE_METHODS.has(method));
}

/**
 * The address counted against, as the library's own key does it (IPv6 by
 * /64). request.ip asks the socket for its peer when first read; a client
 * that resets the connection right after its headers leaves a socket that no
 * longer knows it, and the library's key then threw a TypeError. Nobody is
 * left to answer: the request ends here, as the client's doing.
 */
export function clientKey(request: Pick<FastifyRequest, "ip">): string {
  const address = request.ip as string | undefined;
  if (address === undefined) {
    throw Object.assign(new Error(CONNECTION_GONE_MESSAGE), { statusCode: CLIENT_CLOSED_REQUEST });
  }
  return normalizeIP(address);
}

export default fp(
  async function limits(app: FastifyInstance, options: LimitsOptions) {
    const defaults: Record<WriteArea, RouteLimit> = {
      public: { max: options.publicWritesPerMinute, timeWindow: DEFAULT_WINDOW },
      console: { max: options.consoleWritesPerMinute, timeWindow: DEFAULT_WINDOW },
    };
    app.decorate("writeRoutes", [] as WriteRoute[]);

    // Added before @fastify/rate-limit's own onRoute hook, so the limit given
    // here is the one it then applies.
    app.addHook("onRoute", (route) => {
      const methods = writeMethods(route);
      if (methods.length === 0) return;
      const declared = route.config?.rateLimit;
      if (declared === false) {
        throw new Error(`${methods.join(",")} ${route.url} writes without a rate limit`);
      }
      const area: WriteArea = route.url.startsWith(ADMIN_API) ? "console" : "public";
      const limit = (declared ?? defaults[area]) as RouteLimit;
      route.config = { ...route.config, rateLimit: limit };
      for (const method of methods) {
        app.writeRoutes.push({ method, url: route.url, area, ...limit, own: declared != null });
      }
    });

    const shared: Partial<RateLimitOptions> = {};
    if (options.redisUrl) {
      const nameSpace = `${options.redisKeyPrefix}rate-limit:`;
      const redis = await connectRedis(options.redisUrl, nameSpace, app.log);
      app.addHook("onClose", () => closeRedis(redis));
      app.metrics.gauge(redisUpGauge(redis));
      Object.assign(shared, {
        redis,
        nameSpace,
        // Redis away: the request goes through uncounted (redis-client.ts logs it).
        skipOnError: true,
      });
    }

    await app.register(rateLimit, {
      global: false,
      keyGenerator: clientKey,
      ...shared,
      // An Error, not a plain object: an area's own error handler that passes
      // on what it does not know (the content's) would send an object as 200.
      errorResponseBuilder: () => app.httpErrors.tooManyRequests(RATE_LIMITED_MESSAGE),
    });
  },
  { name: "rate-limit", dependencies: ["metrics"] },
);
