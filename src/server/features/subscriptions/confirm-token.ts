/**
 * The link in a confirmation e-mail (NEWSLETTER_DOUBLE_OPT_IN) carries
 * `<subscription id>.<asked at, base36 ms>.<HMAC>`. The HMAC, under the
 * server's secret, covers the id, the address and the moment the
 * subscription was asked for, so a link stops working once the address
 * subscribes anew; a purpose of its own keeps it from ever equalling an
 * unsubscribe link's signature. The time in clear lets a link whose
 * subscription has already been purged still be told "expired" rather
 * than "not valid".
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { LARGEST_ROW_ID } from "../../../shared/row-id.ts";
import { CONFIRM_TOKEN_PATTERN } from "../../../shared/schemas.ts";
import type { Subscription } from "./queries.ts";

const PURPOSE = "confirm-subscription:v1";

type Signed = Pick<Subscription, "id" | "email" | "subscribedAt">;

export function signConfirmToken(secret: string, subscription: Signed): string {
  const signature = createHmac("sha256", secret)
    .update(`${PURPOSE}:${subscription.id}:${subscription.email}:${subscription.subscribedAt}`)
    .digest("base64url");
  const askedAt = Date.parse(subscription.subscribedAt).toString(36);
  return `${subscription.id}.${askedAt}.${signature}`;
}

/** What a token claims, unverified: its subscription's id and when that was asked for (epoch ms). */
export interface ConfirmTokenClaim {
  id: number;
  askedAt: number;
}

/** The token's claim, or null when it is malformed or names an id no row can have. */
export function readConfirmToken(token: string): ConfirmTokenClaim | null {
  if (!CONFIRM_TOKEN_PATTERN.test(token)) return null;
  const [id = "", askedAt = ""] = token.split(".");
  const claim = { id: Number(id), askedAt: Number.parseInt(askedAt, 36) };
  return claim.id <= LARGEST_ROW_ID ? claim : null;
}

export function confirmTokenMatches(secret: string, token: string, subscription: Signed): boolean {
  const expected = Buffer.from(signConfirmToken(secret, subscription));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
