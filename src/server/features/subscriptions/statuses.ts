/**
 * Who is on the Insight list, defined once. A subscription is awaiting
 * confirmation until its link is followed (double opt-in), active once
 * confirmed, and unsubscribed once it ends, whichever came before. Only active
 * addresses get an issue and leave in an export; the console's list, its
 * filter, its counts and its CSV use the same three words.
 */
import type { ExpressionBuilder, SelectQueryBuilder } from "kysely";
import type { SubscriberStatus } from "../../../shared/admin/subscribers.ts";
import type { Database } from "../../platform/db/schema.ts";
import { notSuppressed } from "../deliverability/index.ts";

type Subscriptions = ExpressionBuilder<Database, "subscriptions">;

/** The condition a subscription of `status` meets, for a where or a filtered count. */
export function hasStatus(eb: Subscriptions, status: SubscriberStatus) {
  switch (status) {
    case "unsubscribed":
      return eb("unsubscribed_at", "is not", null);
    case "awaiting":
      return eb.and([eb("unsubscribed_at", "is", null), eb("confirmed_at", "is", null)]);
    case "active":
      return eb.and([eb("unsubscribed_at", "is", null), eb("confirmed_at", "is not", null)]);
  }
}

/** A subscription's status, from the row as read. */
export function statusOf(row: {
  unsubscribed_at: unknown | null;
  confirmed_at: unknown | null;
}): SubscriberStatus {
  if (row.unsubscribed_at !== null) return "unsubscribed";
  return row.confirmed_at === null ? "awaiting" : "active";
}

/** Narrows a query on subscriptions to the active ones: those an issue goes to. */
export function onlyActive<O>(query: SelectQueryBuilder<Database, "subscriptions", O>) {
  return query.where((eb) => hasStatus(eb, "active"));
}

/**
 * Narrows a query on subscriptions to those an issue is sent to: the active
 * ones whose address is not on the suppression list.
 */
export function onlyRecipients<O>(query: SelectQueryBuilder<Database, "subscriptions", O>) {
  return onlyActive(query).where(notSuppressed);
}
