/**
 * Cross-site request token (spec §9), as a double-submit cookie: the server
 * issues a random XSRF-TOKEN cookie that page script can read, and accepts a
 * POST only when the X-XSRF-TOKEN header repeats it. A page on another site can
 * neither read the cookie nor set the header, and SameSite=Lax keeps the cookie
 * off cross-site POSTs as a second line.
 *
 * Forms posted without JavaScript cannot set the header; their routes opt
 * out (`config: { xsrf: false }`) and are checked by formPostRefusal below
 * and the signed token in their hidden field (forms/form-token.ts, ADR 004).
 */
import { randomFillSync, timingSafeEqual } from "node:crypto";
import cookie from "@fastify/cookie";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { API_PATHS, API_ROOT, serverPath } from "../../shared/api-paths.ts";
import { XSRF_COOKIE, XSRF_HEADER } from "../../shared/constants.ts";

export const XSRF_REJECTED_MESSAGE =
  "Your session token is missing or out of date. Please reload the page and try again.";

/** Why a form posted without JavaScript is refused, in words for the visitor who sent it. */
export const FORM_REFUSALS = {
  crossSite:
    "This form was sent from another website, so we did not accept it. If you meant to write to us, please send it again from this page.",
  noCookie:
    "Your browser did not send our cookie with the form, so we did not accept it. Please allow cookies for this site and send the form again.",
  staleForm:
    "This form was out of date, so we did not accept it. Please check your entries and send it again.",
} as const;

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

/** The request's XSRF-TOKEN cookie when it is well formed (one this server could have issued). */
function cookieTokenOf(request: FastifyRequest): string | undefined {
  const cookieToken = request.cookies[XSRF_COOKIE];
  return cookieToken !== undefined && TOKEN_PATTERN.test(cookieToken) ? cookieToken : undefined;
}

/**
 * Why a form posted without JavaScript must be refused, before its token is
 * looked at, or null: the browser says it came from another site
 * (`Sec-Fetch-Site: cross-site` or `same-site`, or an `Origin` other than
 * `null` that is neither the public origin nor the one the request was sent
 * to), or it lacks the cookie, which SameSite=Lax keeps off posts from other
 * sites and which every page of the site sets.
 */
export function formPostRefusal(request: FastifyRequest, publicOrigin: string): string | null {
  const site = request.headers["sec-fetch-site"];
  if (site === "cross-site" || site === "same-site") return FORM_REFUSALS.crossSite;
  const origin = request.headers.origin;
  // "null" names no origin: browsers send it when the page's Referrer-Policy
  // is no-referrer (helmet's, so Chromium sends it with this site's own forms).
  if (origin !== undefined && origin !== "null") {
    const own = `${request.protocol}://${request.host}`;
    if (origin !== publicOrigin && origin !== own) return FORM_REFUSALS.crossSite;
  }
  return cookieTokenOf(request) ? null : FORM_REFUSALS.noCookie;
}

/**
 * New tokens, cut from one buffer of random bytes refilled when used up: the
 * same CSPRNG output as one call per token, at a fraction of the calls (a
 * first visit is the hot path of every page).
 */
const TOKEN_BYTES = 32;
const tokenPool = Buffer.alloc(TOKEN_BYTES * 128);
let poolOffset = tokenPool.length;
function newToken(): string {
  if (poolOffset === tokenPool.length) {
    randomFillSync(tokenPool);
    poolOffset = 0;
  }
  const token = tokenPool.toString("base64url", poolOffset, poolOffset + TOKEN_BYTES);
  poolOffset += TOKEN_BYTES;
  return token;
}

/** The Set-Cookie header of a new token, written once (the token is URL-safe base64). */
function tokenCookie(token: string, secure: boolean): string {
  return `${XSRF_COOKIE}=${token}; Path=/; SameSite=Lax${secure ? "; Secure" : ""}`;
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
      const cookieToken = cookieTokenOf(request);

      if (UNSAFE_METHODS.has(request.method) && request.routeOptions.config.xsrf !== false) {
        const header = request.headers[XSRF_HEADER.toLowerCase()];
        if (!cookieToken || typeof header !== "string" || !sameToken(header, cookieToken)) {
          throw app.httpErrors.forbidden(XSRF_REJECTED_MESSAGE);
        }
      }

      if (cookieToken) {
        request.xsrfToken = cookieToken;
      } else if (issuesToken(pathOf(request))) {
        request.xsrfToken = newToken();
        reply.header("set-cookie", tokenCookie(request.xsrfToken, request.protocol === "https"));
      }
    });
  },
  { name: "xsrf" },
);
