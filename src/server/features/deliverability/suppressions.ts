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

/** The condition a subscription meets when its address is not suppressed. */
export function notSuppressed(eb: ExpressionBuilder<Database, "subscriptions">) {
  return eb.not(
    eb.exists(
      eb
        .selectFrom("suppressions")
        .select("suppressions.id")
        .whereRef("suppressions.email", "=", "subscriptions.email"),
    ),
  );
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
