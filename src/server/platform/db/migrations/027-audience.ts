import { sql } from "kysely";
import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes, notNull } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
  // The day's random salt a visitor's keyed hash is made with, one per
  // UTC day for every instance: the first to insert it wins. Deleted
  // after 48 hours, so no visitor can be followed from one day to the next.
  await db.schema
    .createTable("audience_salts")
    .addColumn("day", "text", (c) => c.primaryKey())
    .addColumn("salt", "text", notNull)
    .addColumn("created_at", types.timestamp as "text", notNull)
    .execute();
  // The counted figures, one row per UTC day, dimension and value:
  // no address, user agent or hash is kept. Each instance adds its
  // buffered counts with one upsert per row.
  await db.schema
    .createTable("audience_days")
    .addColumn("day", "text", notNull)
    .addColumn("dimension", "text", (c) =>
      c
        .notNull()
        .check(
          sql`dimension in ('total', 'page', 'entry', 'channel', 'referrer', 'utm_source', 'utm_medium', 'utm_campaign', 'device', 'browser', 'funnel', 'insight')`,
        ),
    )
    .addColumn("value", "text", notNull)
    .addColumn("views", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("visits", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("visitors", "bigint", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("audience_days_key", ["day", "dimension", "value"])
    .execute();
}
