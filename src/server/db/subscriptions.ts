import type { Kysely } from "kysely";
import { type Database, nowIso } from "./schema.ts";

export interface Subscription {
  id: number;
  email: string;
  /** ISO-8601; part of the unsubscribe token, so a new subscription gets a new token. */
  subscribedAt: string;
  unsubscribedAt: string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * Subscribes an address. The unique e-mail column decides the outcome in one
 * statement: a new address is inserted, an unsubscribed one is re-activated,
 * and an active one is left alone (null), so concurrent requests cannot both
 * win. The consent record keeps when and how each change happened.
 */
export async function subscribe(
  db: Kysely<Database>,
  email: string,
  via: string,
): Promise<Subscription | null> {
  const now = nowIso();
  const row = await db
    .insertInto("subscriptions")
    .values({ email, subscribed_at: now, subscribed_via: via, created_at: now, updated_at: now })
    .onConflict((conflict) =>
      conflict
        .column("email")
        .doUpdateSet({
          subscribed_at: now,
          subscribed_via: via,
          unsubscribed_at: null,
          unsubscribed_via: null,
          updated_at: now,
        })
        .where("subscriptions.unsubscribed_at", "is not", null),
    )
    .returning(["id", "email", "subscribed_at"])
    .executeTakeFirst();
  return row
    ? { id: row.id, email: row.email, subscribedAt: iso(row.subscribed_at), unsubscribedAt: null }
    : null;
}

export async function findSubscription(
  db: Kysely<Database>,
  id: number,
): Promise<Subscription | undefined> {
  const row = await db
    .selectFrom("subscriptions")
    .select(["id", "email", "subscribed_at", "unsubscribed_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      email: row.email,
      subscribedAt: iso(row.subscribed_at),
      unsubscribedAt: row.unsubscribed_at ? iso(row.unsubscribed_at) : null,
    }
  );
}

/** Ends an active subscription; false when it had already ended. */
export async function unsubscribe(db: Kysely<Database>, id: number, via: string): Promise<boolean> {
  const now = nowIso();
  const result = await db
    .updateTable("subscriptions")
    .set({ unsubscribed_at: now, unsubscribed_via: via, updated_at: now })
    .where("id", "=", id)
    .where("unsubscribed_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
