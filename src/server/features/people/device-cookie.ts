/**
 * A known device: after a successful sign-in the browser gets a cookie
 * `<nonce>.<HMAC of nonce and account>`, signed with a key derived from the
 * server's secret. Bringing it back with the same account's address makes
 * the attempt the device's own: it is counted under the device alone, so
 * strangers who lock the account's untrusted sign-ins do not lock out its
 * owner, and a stolen or guessing device locks only itself. Nothing is
 * stored for a device: the nonce names its count.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AUTH_PATHS } from "../../../shared/admin/auth.ts";

export const DEVICE_COOKIE = "console_device";

/** Changing it (or the secret) makes every device unknown again. */
const KEY_PURPOSE = "console known device";
/** A device not used to sign in for this long is a stranger again. */
const DEVICE_MAX_AGE_S = 180 * 24 * 60 * 60;
const COOKIE_FORMAT = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export function deviceCookies(serverSecret: string) {
  const key = createHmac("sha256", serverSecret).update(KEY_PURPOSE).digest();
  const signature = (nonce: string, email: string) =>
    createHmac("sha256", key).update(`${nonce}\n${email}`).digest("base64url");

  return {
    /** The device's nonce, when the request's cookie was signed here for this account; else null. */
    deviceOf(request: FastifyRequest, email: string): string | null {
      const match = COOKIE_FORMAT.exec(request.cookies[DEVICE_COOKIE] ?? "");
      if (!match) return null;
      const [, nonce = "", given = ""] = match;
      const expected = Buffer.from(signature(nonce, email));
      return timingSafeEqual(expected, Buffer.from(given)) ? nonce : null;
    },

    /** A fresh cookie for the account just signed in, replacing any older one. */
    remember(request: FastifyRequest, reply: FastifyReply, email: string): void {
      const nonce = randomBytes(16).toString("base64url");
      reply.setCookie(DEVICE_COOKIE, `${nonce}.${signature(nonce, email)}`, {
        path: AUTH_PATHS.session,
        httpOnly: true,
        sameSite: "strict",
        secure: request.protocol === "https",
        maxAge: DEVICE_MAX_AGE_S,
      });
    },
  };
}
