import { type AnyDb, notNull } from "./shared.ts";

export async function up(db: AnyDb): Promise<void> {
  // Posts the forms' traps turned away (ADR 017), counted per day, form
  // and reason: one row each, bumped by one upsert, so the table stays
  // small however many scripts come.
  await db.schema
    .createTable("bot_trips")
    .addColumn("day", "text", notNull)
    .addColumn("form", "text", notNull)
    .addColumn("reason", "text", notNull)
    .addColumn("count", "integer", notNull)
    .addPrimaryKeyConstraint("bot_trips_key", ["day", "form", "reason"])
    .execute();
}
