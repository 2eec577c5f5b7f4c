/**
 * The suppression list: addresses that get no more mail from the site
 * except the firm's own notifications, because a report said they no longer
 * exist, refuse the firm's mail, or called it spam. One row per address:
 * the unique index decides, however many reports arrive at once.
 */
import type { ExpressionBuilder, Kysely } from "kysely";
import type { Database } from "../../platform/db/schema.ts";

/** Whether mail other than the firm's own notifications may go to `email`. */
export async function isSuppressed(db: Kysely<Database>, email: string): Promise<boolean> {
  const row = await db
    .selectFrom("suppressions")
    .select("id")
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Which of `addresses` (lower-cased) are on the suppression list: one query
 * for a batch, for a list judged in bulk (a subscriber import).
 */
export async function suppressedAmong(
  db: Kysely<Database>,
  addresses: readonly string[],
): Promise<string[]> {
  if (addresses.length === 0) return [];
  const rows = await db
    .selectFrom("suppressions")
    .select("email")
    .where("email", "in", addresses)
    .execute();
  return rows.map((row) => row.email);
}

/** The condition a subscription meets when its address is on the suppression list. */
export function suppressedSubscription(eb: ExpressionBuilder<Database, "subscriptions">) {
  return eb.exists(
    eb
      .selectFrom("suppressions")
      .select("suppressions.id")
      .whereRef("suppressions.email", "=", "subscriptions.email"),
  );
}

/** The condition a subscription meets when its address is not suppressed. */
export function notSuppressed(eb: ExpressionBuilder<Database, "subscriptions">) {
  return eb.not(suppressedSubscription(eb));
}

/**
 * Takes an address off the list; false when it was not on it. Only a
 * deliberate act does this: an owner in the console, or the address's owner
 * confirming a new subscription through the link mailed to it.
 */
export async function liftSuppression(db: Kysely<Database>, email: string): Promise<boolean> {
  const { numDeletedRows } = await db
    .deleteFrom("suppressions")
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  return numDeletedRows > 0n;
}

/**
 * Forgets everything kept about an address's mail coming back: its reports,
 * the unverified reports that name it, and its suppression. Part of erasing
 * a person: the reports hold the address and the receiving servers' words
 * about it.
 */
export async function forgetAddress(db: Kysely<Database>, email: string): Promise<void> {
  const address = email.trim().toLowerCase();
  await db.deleteFrom("suppressions").where("email", "=", address).execute();
  await db.deleteFrom("delivery_reports").where("email", "=", address).execute();
  await db.deleteFrom("set_aside_mail").where("email", "=", address).execute();
}
