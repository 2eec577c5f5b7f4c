/**
 * The keyed hash an erased address is remembered by (erased_subscribers),
 * so an import can skip it without the site keeping the address. Apart from
 * the rest of the subscribers' queries because the import's reader, on a
 * worker thread, hashes the file's addresses too.
 */
import { createHmac } from "node:crypto";
import { normalizeEmail } from "../../../shared/subscription.ts";

/**
 * The key that makes an erased address's hash this site's own: derived from
 * the server's secret for this one purpose, so the hashes cannot be matched
 * against a list of addresses without the secret, nor against another site's.
 */
function erasureKey(secret: string): Buffer {
  return createHmac("sha256", secret).update("erased-subscribers").digest();
}

/** The salted SHA-256 (an HMAC) of the lower-cased address, as hex. */
export function erasureHash(secret: string, email: string): string {
  return erasureHasher(secret)(email);
}

/** erasureHash for many addresses: the key derived once. */
export function erasureHasher(secret: string): (email: string) => string {
  const key = erasureKey(secret);
  return (email) => createHmac("sha256", key).update(normalizeEmail(email)).digest("hex");
}
