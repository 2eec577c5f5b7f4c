/**
 * The token in every form's hidden field (FORM_TOKEN_FIELD, ADR 004): an
 * HMAC of a fixed purpose under the server's secret (the one that signs
 * unsubscribe links, shared by every instance). Pages are rendered once and
 * shared by every visitor, so the token cannot name a visitor: it is the same
 * in every page, and only shows that a post came from a form this server
 * rendered with its current secret. The cookie and the browser's
 * cross-site signals do the rest (platform/security/xsrf.ts, formPostRefusal).
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** Changing it (or the secret) makes the tokens in pages already open stale. */
const PURPOSE = "form-post:v1";

export function formToken(secret: string): string {
  return createHmac("sha256", secret).update(PURPOSE).digest("base64url");
}

export function formTokenMatches(expected: string, given: string | null): boolean {
  if (given === null) return false;
  const left = Buffer.from(expected);
  const right = Buffer.from(given);
  return left.length === right.length && timingSafeEqual(left, right);
}
