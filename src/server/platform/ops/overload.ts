/**
 * Load shedding: while the event loop lags behind (its mean delay over the
 * last second above MAX_EVENT_LOOP_DELAY_MS), requests are answered at once
 * with 503 and Retry-After instead of queueing until every visitor waits
 * seconds. The refusal costs next to nothing, so the backlog drains and the
 * server serves again from the next sample on. /healthz still answers: the
 * process is alive, and a supervisor must not restart it for being busy;
 * /readyz answers 503 like the rest, so a load balancer sends traffic elsewhere.
 */
import underPressure from "@fastify/under-pressure";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

export const OVERLOADED_MESSAGE =
  "The site is very busy right now. Please try again in a few seconds.";
export const RETRY_AFTER_SECONDS = 5;
const ANSWERED_UNDER_PRESSURE = new Set(["/healthz"]);

export default fp(
  async function overload(
    app: FastifyInstance,
    { maxEventLoopDelayMs }: { maxEventLoopDelayMs: number },
  ) {
    const overloaded = app.httpErrors.createError(503, OVERLOADED_MESSAGE, { expose: true });
    await app.register(underPressure, {
      // 0 switches the check off.
      maxEventLoopDelay: maxEventLoopDelayMs,
      // Resolving lets the request through; rejecting answers it through the
      // one error handler (platform/security/errors.ts).
      pressureHandler: async (request, reply) => {
        if (ANSWERED_UNDER_PRESSURE.has(request.routeOptions.url ?? "")) return;
        reply.header("retry-after", RETRY_AFTER_SECONDS);
        throw overloaded;
      },
    });
  },
  { name: "overload", dependencies: ["errors"] },
);
