import { sql } from "kysely";
import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes, notNull } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
  // The Audience area reads one dimension over a range of days: the
  // key starts with the day, so it would walk every dimension of
  // those days. This index walks the one dimension's days alone and
  // holds the counts, so the figures are read from it without the table.
  if (engine === "postgres") {
    await sql`create index audience_days_by_dimension on audience_days (dimension, day, value) include (views, visits, visitors)`.execute(
      db,
    );
  } else {
    await db.schema
      .createIndex("audience_days_by_dimension")
      .on("audience_days")
      .columns(["dimension", "day", "value", "views", "visits", "visitors"])
      .execute();
  }
  // The leads of a range of days, for the area's conversions: read by
  // when they were made, not walked whole.
  await db.schema.createIndex("inquiries_created").on("inquiries").column("created_at").execute();
  await db.schema
    .createIndex("subscriptions_subscribed")
    .on("subscriptions")
    .column("subscribed_at")
    .execute();
  // The weekly digest's weeks (the Monday they start on): the instance
  // whose insert goes through sends that week's, in the same transaction.
  await db.schema
    .createTable("audience_digests")
    .addColumn("week", "text", (c) => c.primaryKey())
    .addColumn("sent_at", types.timestamp as "text", notNull)
    .addColumn("recipients", "integer", notNull)
    .execute();
}
