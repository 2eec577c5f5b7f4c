import type { Kysely } from "kysely";
import { type Database, nowIso, type SubscriptionEventsTable } from "./schema.ts";

export interface Subscription {
  id: number;
  email: string;
  /** ISO-8601; part of the unsubscribe token, so a new subscription gets a new token. */
  subscribedAt: string;
  unsubscribedAt: string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** Runs `work` in the caller's transaction, or in a new one when the caller has none. */
function inTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/** Adds a line to the consent history (subscription_events). */
async function recordConsent(
  db: Kysely<Database>,
  subscriptionId: number,
  event: SubscriptionEventsTable["event"],
  via: string,
  at: string,
): Promise<void> {
  await db
    .insertInto("subscription_events")
    .values({ subscription_id: subscriptionId, event, via, at })
    .execute();
}

/**
 * Subscribes an address. The unique e-mail column decides the outcome in one
 * statement: a new address is inserted, an unsubscribed one is re-activated,
 * and an active one is left alone (null), so concurrent requests cannot both
 * win. Only the winner adds its line to the consent history, in the same
 * transaction, so the history never claims a change that did not happen.
 */
export function subscribe(
  db: Kysely<Database>,
  email: string,
  via: string,
): Promise<Subscription | null> {
  return inTransaction(db, (trx) => subscribeIn(trx, email, via));
}

async function subscribeIn(
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
  if (row) await recordConsent(db, row.id, "subscribed", via, now);
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

/**
 * Ends an active subscription and records it in the consent history; false
 * when it had already ended (then nothing is recorded: of two simultaneous
 * requests, only the one whose update changed the row writes the event).
 */
export function unsubscribe(db: Kysely<Database>, id: number, via: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const now = nowIso();
    const result = await trx
      .updateTable("subscriptions")
      .set({ unsubscribed_at: now, unsubscribed_via: via, updated_at: now })
      .where("id", "=", id)
      .where("unsubscribed_at", "is", null)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    await recordConsent(trx, id, "unsubscribed", via, now);
    return true;
  });
}
