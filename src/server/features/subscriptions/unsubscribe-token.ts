/**
 * Unsubscribe links carry `<subscription id>.<HMAC>`: unguessable without the
 * secret, and bound to the subscription's start time, so a link from an
 * earlier subscription stops working once the address subscribes again.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { UNSUBSCRIBE_PATH } from "../../../shared/routes.ts";
import { LARGEST_ROW_ID } from "../../../shared/row-id.ts";
import { UNSUBSCRIBE_TOKEN_PATTERN } from "../../../shared/schemas.ts";
import type { Subscription } from "./queries.ts";

function signature(
  secret: string,
  subscription: Pick<Subscription, "id" | "email" | "subscribedAt">,
) {
  return createHmac("sha256", secret)
    .update(`${subscription.id}:${subscription.email}:${subscription.subscribedAt}`)
    .digest("base64url");
}

/** The page an e-mail's unsubscribe link opens, with the subscription's token. */
export function unsubscribeUrl(origin: string, secret: string, subscription: Subscription): string {
  const url = new URL(UNSUBSCRIBE_PATH, origin);
  url.searchParams.set("token", signUnsubscribeToken(secret, subscription));
  return url.toString();
}

export function signUnsubscribeToken(secret: string, subscription: Subscription): string {
  return `${subscription.id}.${signature(secret, subscription)}`;
}

/** The subscription id a token names, or null when the token is malformed or no id can be that large. */
export function tokenSubscriptionId(token: string): number | null {
  const match = UNSUBSCRIBE_TOKEN_PATTERN.exec(token);
  const id = match ? Number(match[1]) : null;
  return id !== null && id <= LARGEST_ROW_ID ? id : null;
}

export function tokenMatches(secret: string, token: string, subscription: Subscription): boolean {
  const expected = Buffer.from(signUnsubscribeToken(secret, subscription));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
