import type { Kysely } from "kysely";
import { type Database, nowIso } from "./schema.ts";

export type SubscribeOutcome = "subscribed" | "already-subscribed";

/**
 * Subscribes an address. The unique e-mail column decides the outcome in one
 * statement: a new address is inserted, an unsubscribed one is re-activated,
 * and an active one is left alone, so concurrent requests cannot both win.
 */
export async function subscribe(
  db: Kysely<Database>,
  email: string,
  via: string,
): Promise<SubscribeOutcome> {
  const now = nowIso();
  const row = await db
    .insertInto("subscriptions")
    .values({
      email,
      subscribed_at: now,
      subscribed_via: via,
      created_at: now,
      updated_at: now,
    })
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
    .returning("id")
    .executeTakeFirst();
  return row ? "subscribed" : "already-subscribed";
}
