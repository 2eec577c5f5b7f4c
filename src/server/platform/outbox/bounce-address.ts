/**
 * The per-message bounce address: the envelope sender of every message the
 * outbox sends, when BOUNCE_ADDRESS is set. Its local part carries the
 * message's outbox id and a signature, `bounces+<id>.<signature>@domain`, so
 * a report that comes back to it names the very message (and through its
 * row the kind, the issue and the reader) without trusting anything the
 * report says about itself. Lower-case letters and digits only: some
 * servers change the case of a local part on the way back.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** 80 bits: guessing a valid address for a given message is out of reach. */
const SIGNATURE_LENGTH = 20;

/** Keeps this signature apart from the other things the same secret signs. */
const PURPOSE = "bounce-address";

function signature(secret: string, outboxId: number): string {
  return createHmac("sha256", secret)
    .update(`${PURPOSE}:${outboxId}`)
    .digest("hex")
    .slice(0, SIGNATURE_LENGTH);
}

function parts(address: string): { local: string; domain: string } | null {
  const at = address.lastIndexOf("@");
  if (at <= 0 || at === address.length - 1) return null;
  return { local: address.slice(0, at), domain: address.slice(at + 1) };
}

/**
 * Whether `address` has the form of a bounce address made from `base`
 * (`local+…@domain`), signed rightly or not: one that has the form and does
 * not verify was forged or mangled, which is worth a word in the log.
 */
export function hasBounceAddressForm(base: string, address: string): boolean {
  const at = base.lastIndexOf("@");
  const lowered = address.trim().toLowerCase();
  return (
    lowered.startsWith(`${base.slice(0, at).toLowerCase()}+`) &&
    lowered.endsWith(base.slice(at).toLowerCase())
  );
}

/** The envelope sender for one outbox message: `base` with the message's token after a `+`. */
export function bounceAddressFor(base: string, secret: string, outboxId: number): string {
  const { local, domain } = parts(base) ?? { local: base, domain: "" };
  return `${local}+${outboxId.toString(36)}.${signature(secret, outboxId)}@${domain}`;
}

/**
 * The outbox id an address signed by bounceAddressFor names; null for an
 * address of another form, another base, or a signature that does not match
 * (forged or mangled).
 */
export function outboxIdOfBounceAddress(
  base: string,
  secret: string,
  address: string,
): number | null {
  const expected = parts(base.toLowerCase());
  const given = parts(address.trim().toLowerCase());
  if (!expected || !given || given.domain !== expected.domain) return null;
  const prefix = `${expected.local}+`;
  if (!given.local.startsWith(prefix)) return null;
  const match = /^([0-9a-z]{1,11})\.([0-9a-f]+)$/.exec(given.local.slice(prefix.length));
  if (!match) return null;
  const [, id36 = "", signed = ""] = match;
  const outboxId = Number.parseInt(id36, 36);
  if (!Number.isSafeInteger(outboxId) || outboxId <= 0) return null;
  const wanted = Buffer.from(signature(secret, outboxId));
  const offered = Buffer.from(signed);
  return offered.length === wanted.length && timingSafeEqual(offered, wanted) ? outboxId : null;
}
