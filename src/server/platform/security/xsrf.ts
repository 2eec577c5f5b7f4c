/**
 * Cross-site request token, as a double-submit cookie: the server
 * issues a random XSRF-TOKEN cookie that page script can read, and accepts a
 * POST only when the X-XSRF-TOKEN header repeats it. A page on another site can
 * neither read the cookie nor set the header, and SameSite=Lax keeps the cookie
 * off cross-site POSTs as a second line; a POST whose Origin or Sec-Fetch-Site
 * names another site is refused before the token is looked at.
 *
 * The token carries the time it was issued, signed with a key derived from the
 * server's secret (shared by every instance): `<random>.<issued at, base36
 * ms>.<HMAC>`. The forms' minimum time-to-submit reads it (bot-defence.ts,
 * ADR 017); a cookie whose signature fails counts as absent, and a new one is issued.
 *
 * Forms posted without JavaScript cannot set the header; their routes opt
 * out (`config: { xsrf: false }`) and are checked by formPostRefusal below
 * and the signed token in their hidden field (features/pages/form-token.ts, ADR 004).
 */
import { createHmac, randomFillSync, timingSafeEqual } from "node:crypto";
import cookie from "@fastify/cookie";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { API_PATHS, API_ROOT, serverPath } from "../../../shared/api-paths.ts";
import { XSRF_COOKIE, XSRF_HEADER } from "../../../shared/constants.ts";

export const XSRF_REJECTED_MESSAGE =
  "Your session token is missing or out of date. Please reload the page and try again.";

export const CROSS_SITE_REJECTED_MESSAGE =
  "This request was sent from another website, so we did not accept it. Please send it again from this site's own page.";

/** Why a form posted without JavaScript is refused, in words for the visitor who sent it. */
export const FORM_REFUSALS = {
  crossSite:
    "This form was sent from another website, so we did not accept it. If you meant to write to us, please send it again from this page.",
  noCookie:
    "Your browser did not send our cookie with the form, so we did not accept it. Please allow cookies for this site and send the form again.",
  staleForm:
    "This form was out of date, so we did not accept it. Please check your entries and send it again.",
} as const;

/** The random part, the issue time (base36 milliseconds) and the signature of both. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}\.[0-9a-z]{1,11}\.[A-Za-z0-9_-]{43}$/;
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
    /** When xsrfToken was issued (epoch ms), as its signature vouches. */
    xsrfIssuedAt: number;
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

/** Changing it (or the secret) makes every token issued before stale. */
const TOKEN_KEY_PURPOSE = "xsrf-token:v1";

/** Signs and reads the tokens under a key of their own, derived from the server's secret. */
export function tokenSigner(secret: string) {
  const key = createHmac("sha256", secret).update(TOKEN_KEY_PURPOSE).digest();
  const signatureOf = (body: string) => createHmac("sha256", key).update(body).digest("base64url");
  return {
    /** A new token for a random part, issued at `issuedAt` (epoch ms). */
    sign(random: string, issuedAt: number): string {
      const body = `${random}.${issuedAt.toString(36)}`;
      return `${body}.${signatureOf(body)}`;
    },
    /** When a token this server signed was issued, or null for any other string. */
    issuedAt(token: string): number | null {
      if (!TOKEN_PATTERN.test(token)) return null;
      const cut = token.lastIndexOf(".");
      const body = token.slice(0, cut);
      if (!sameToken(token.slice(cut + 1), signatureOf(body))) return null;
      return Number.parseInt(body.slice(body.indexOf(".") + 1), 36);
    },
  };
}

/**
 * Whether the browser says the request came from another site:
 * `Sec-Fetch-Site: cross-site` or `same-site`, or an `Origin` other than
 * `null` that is neither the public origin nor the one the request was sent to.
 */
export function fromAnotherSite(request: FastifyRequest, publicOrigin: string): boolean {
  const site = request.headers["sec-fetch-site"];
  if (site === "cross-site" || site === "same-site") return true;
  const origin = request.headers.origin;
  // "null" names no origin: browsers send it when the page's Referrer-Policy
  // is no-referrer (this site's until it became same-origin; a page loaded
  // before that, or a proxy that sets no-referrer, still makes Chromium send it).
  if (origin === undefined || origin === "null") return false;
  return origin !== publicOrigin && origin !== `${request.protocol}://${request.host}`;
}

/**
 * Why a form posted without JavaScript must be refused, before its token is
 * looked at, or null: the browser says it came from another site
 * (fromAnotherSite), or it lacks the cookie, which SameSite=Lax keeps off
 * posts from other sites and which every page of the site sets.
 */
export function formPostRefusal(request: FastifyRequest, publicOrigin: string): string | null {
  if (fromAnotherSite(request, publicOrigin)) return FORM_REFUSALS.crossSite;
  // xsrfToken is the cookie's only when it came and its signature held; else it is a new one.
  const cameWithCookie =
    request.xsrfToken !== "" && request.cookies[XSRF_COOKIE] === request.xsrfToken;
  return cameWithCookie ? null : FORM_REFUSALS.noCookie;
}

/**
 * New tokens, cut from one buffer of random bytes refilled when used up: the
 * same CSPRNG output as one call per token, at a fraction of the calls (a
 * first visit is the hot path of every page).
 */
const TOKEN_BYTES = 32;
const tokenPool = Buffer.alloc(TOKEN_BYTES * 128);
let poolOffset = tokenPool.length;
function newRandom(): string {
  if (poolOffset === tokenPool.length) {
    randomFillSync(tokenPool);
    poolOffset = 0;
  }
  const token = tokenPool.toString("base64url", poolOffset, poolOffset + TOKEN_BYTES);
  poolOffset += TOKEN_BYTES;
  return token;
}

/** The Set-Cookie header of a new token, written once (the token is URL-safe). */
function tokenCookie(token: string, secure: boolean): string {
  return `${XSRF_COOKIE}=${token}; Path=/; SameSite=Lax${secure ? "; Secure" : ""}`;
}

function pathOf(request: FastifyRequest): string {
  const query = request.url.indexOf("?");
  return query === -1 ? request.url : request.url.slice(0, query);
}

export interface XsrfOptions {
  /** PUBLIC_ORIGIN: a POST's Origin may be it (or the origin the request was sent to). */
  origin: string;
  /** The server's secret (app.ts); the tokens are signed with a key derived from it. */
  secret: string;
}

export default fp(
  async function xsrf(app: FastifyInstance, { origin, secret }: XsrfOptions) {
    await app.register(cookie);
    app.decorateRequest("xsrfToken", "");
    app.decorateRequest("xsrfIssuedAt", 0);
    const signer = tokenSigner(secret);

    app.addHook("onRequest", async (request, reply) => {
      const cookieToken = request.cookies[XSRF_COOKIE];
      const issuedAt = cookieToken === undefined ? null : signer.issuedAt(cookieToken);

      if (UNSAFE_METHODS.has(request.method) && request.routeOptions.config.xsrf !== false) {
        if (fromAnotherSite(request, origin)) {
          throw app.httpErrors.forbidden(CROSS_SITE_REJECTED_MESSAGE);
        }
        const header = request.headers[XSRF_HEADER.toLowerCase()];
        if (
          issuedAt === null ||
          typeof header !== "string" ||
          !sameToken(header, cookieToken ?? "")
        ) {
          throw app.httpErrors.forbidden(XSRF_REJECTED_MESSAGE);
        }
      }

      if (cookieToken !== undefined && issuedAt !== null) {
        request.xsrfToken = cookieToken;
        request.xsrfIssuedAt = issuedAt;
      } else if (issuesToken(pathOf(request))) {
        request.xsrfIssuedAt = Date.now();
        request.xsrfToken = signer.sign(newRandom(), request.xsrfIssuedAt);
        reply.header("set-cookie", tokenCookie(request.xsrfToken, request.protocol === "https"));
      }
    });
  },
  { name: "xsrf" },
);
