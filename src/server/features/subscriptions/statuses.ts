/**
 * Who is on the Insight list, defined once, in four words. A subscription
 * is unsubscribed once it ends. Before that it is awaiting confirmation
 * until its link is followed (double opt-in, or an address that bounced or
 * complained and subscribed again: following the link lifts that). A
 * confirmed one is suppressed while its address is on the suppression list,
 * and gets nothing; else it is active, and only active addresses get an
 * issue and leave in an export. The console's list, its filter, its counts,
 * its CSV and the send's confirmation all use these four words.
 */
import type { ExpressionBuilder, SelectQueryBuilder } from "kysely";
import type { SubscriberStatus } from "../../../shared/admin/subscribers.ts";
import type { Database } from "../../platform/db/schema.ts";
import { notSuppressed, suppressedSubscription } from "../deliverability/index.ts";

type Subscriptions = ExpressionBuilder<Database, "subscriptions">;

/** The condition a subscription of `status` meets, for a where or a filtered count. */
export function hasStatus(eb: Subscriptions, status: SubscriberStatus) {
  const subscribed = eb("unsubscribed_at", "is", null);
  const confirmed = eb("confirmed_at", "is not", null);
  switch (status) {
    case "unsubscribed":
      return eb("unsubscribed_at", "is not", null);
    case "awaiting":
      return eb.and([subscribed, eb("confirmed_at", "is", null)]);
    case "suppressed":
      return eb.and([subscribed, confirmed, suppressedSubscription(eb)]);
    case "active":
      return eb.and([subscribed, confirmed, notSuppressed(eb)]);
  }
}

/** A subscription's status, from the row as read with whether its address is suppressed. */
export function statusOf(row: {
  unsubscribed_at: unknown | null;
  confirmed_at: unknown | null;
  suppressed: unknown;
}): SubscriberStatus {
  if (row.unsubscribed_at !== null) return "unsubscribed";
  if (row.confirmed_at === null) return "awaiting";
  // SQLite answers 1 or 0, PostgreSQL true or false.
  return row.suppressed ? "suppressed" : "active";
}

/** Narrows a query on subscriptions to the active ones: those an issue goes to. */
export function onlyActive<O>(query: SelectQueryBuilder<Database, "subscriptions", O>) {
  return query.where((eb) => hasStatus(eb, "active"));
}
