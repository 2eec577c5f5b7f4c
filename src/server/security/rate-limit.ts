/**
 * Per-address limits for the routes that write (their config opts in), so a
 * script cannot flood the inbox or the subscriber list. The address is
 * request.ip, which takes X-Forwarded-For only from the proxies TRUST_PROXY
 * names (trust-proxy.ts).
 */
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

export const RATE_LIMITED_MESSAGE = "Too many requests. Please wait a minute and try again.";

export default fp(
  async function limits(app: FastifyInstance) {
    await app.register(rateLimit, {
      global: false,
      errorResponseBuilder: (_request, context) => ({
        statusCode: context.statusCode,
        message: RATE_LIMITED_MESSAGE,
      }),
    });
  },
  { name: "rate-limit" },
);
