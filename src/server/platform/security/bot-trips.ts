/**
 * The posts the forms' traps turned away (ADR 017), counted per UTC day, form
 * and reason. One upsert per trip decides the count, so instances writing at
 * once never lose one; nothing about the sender is kept.
 */
import { type Kysely, sql } from "kysely";
import type { DefendedForm, TrapReason } from "../../../shared/bot-defence.ts";
import type { Database } from "../db/schema.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day of a moment, as the table keys it. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

export async function countTrip(
  db: Kysely<Database>,
  form: DefendedForm,
  reason: TrapReason,
  at = new Date(),
): Promise<void> {
  await db
    .insertInto("bot_trips")
    .values({ day: dayOf(at), form, reason, count: 1 })
    .onConflict((conflict) =>
      conflict
        .columns(["day", "form", "reason"])
        .doUpdateSet({ count: sql<number>`bot_trips.count + 1` }),
    )
    .execute();
}

/** The trips of the last `days` days (today included), per form and reason. */
export async function tripsOfLastDays(db: Kysely<Database>, days: number, now = new Date()) {
  const rows = await db
    .selectFrom("bot_trips")
    .select(["form", "reason", (eb) => eb.fn.sum<number | string>("count").as("trips")])
    .where("day", ">=", dayOf(new Date(now.getTime() - (days - 1) * DAY_MS)))
    .groupBy(["form", "reason"])
    .execute();
  // PostgreSQL sums integers into a bigint, which its driver reads as a string.
  return rows.map((row) => ({ form: row.form, reason: row.reason, trips: Number(row.trips) }));
}
