/**
 * Cross-site request token (spec §9), as a double-submit cookie: the server
 * issues a random XSRF-TOKEN cookie that page script can read, and accepts a
 * POST only when the X-XSRF-TOKEN header repeats it. A page on another site can
 * neither read the cookie nor set the header, and SameSite=Lax keeps the cookie
 * off cross-site POSTs as a second line.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import cookie from "@fastify/cookie";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { API_PATHS, API_ROOT, serverPath } from "../../shared/api-paths.ts";
import { XSRF_COOKIE, XSRF_HEADER } from "../../shared/constants.ts";

export const XSRF_REJECTED_MESSAGE =
  "Your session token is missing or out of date. Please reload the page and try again.";

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** Static files (anything with an extension) get no cookie, so CDNs may cache them. */
const FILE_PATH = /\.[A-Za-z0-9]+$/;
const TOKEN_PATH = serverPath(API_PATHS.xsrf);

/**
 * A new token goes with pages (a visitor's first answer) and with the token
 * endpoint, which a page served from a cache calls; the other API answers
 * need none, and skip the cost.
 */
function issuesToken(path: string): boolean {
  if (path.startsWith(API_ROOT)) return path === TOKEN_PATH || path === `${TOKEN_PATH}/`;
  return !FILE_PATH.test(path);
}

declare module "fastify" {
  interface FastifyRequest {
    xsrfToken: string;
  }
  interface FastifyContextConfig {
    /** false exempts a route that proves itself otherwise (a signed token in its URL). */
    xsrf?: boolean;
  }
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function pathOf(request: FastifyRequest): string {
  const query = request.url.indexOf("?");
  return query === -1 ? request.url : request.url.slice(0, query);
}

export default fp(
  async function xsrf(app: FastifyInstance) {
    await app.register(cookie);
    app.decorateRequest("xsrfToken", "");

    app.addHook("onRequest", async (request, reply) => {
      const cookieToken = request.cookies[XSRF_COOKIE];
      const valid = cookieToken !== undefined && TOKEN_PATTERN.test(cookieToken);

      if (UNSAFE_METHODS.has(request.method) && request.routeOptions.config.xsrf !== false) {
        const header = request.headers[XSRF_HEADER.toLowerCase()];
        if (!valid || typeof header !== "string" || !sameToken(header, cookieToken)) {
          throw app.httpErrors.forbidden(XSRF_REJECTED_MESSAGE);
        }
      }

      if (valid) {
        request.xsrfToken = cookieToken;
      } else if (issuesToken(pathOf(request))) {
        request.xsrfToken = randomBytes(32).toString("base64url");
        reply.setCookie(XSRF_COOKIE, request.xsrfToken, {
          path: "/",
          sameSite: "lax",
          secure: request.protocol === "https",
          httpOnly: false,
        });
      }
    });
  },
  { name: "xsrf" },
);
