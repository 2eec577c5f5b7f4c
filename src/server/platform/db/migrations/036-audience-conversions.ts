import { sql } from "kysely";
import type { Engine } from "../connection.ts";
import type { AnyDb } from "./shared.ts";

const COUNTS = ["views", "visits", "visitors", "conversions", "inquiries", "subscriptions"];

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  // What a counted visit led to, counted into the same rows as the visit
  // itself: the visits that sent an inquiry or subscribed (once each), and
  // the inquiries and subscriptions they made. Leads made any other way
  // (an import, the console, a post from no counted visit) are in no row.
  for (const column of ["conversions", "inquiries", "subscriptions"]) {
    await db.schema
      .alterTable("audience_days")
      .addColumn(column, "bigint", (c) => c.notNull().defaultTo(0))
      .execute();
  }
  // The dimension index holds every count, so the figures are still read
  // from it alone.
  await db.schema.dropIndex("audience_days_by_dimension").execute();
  if (engine === "postgres") {
    await sql`create index audience_days_by_dimension on audience_days (dimension, day, value) include (${sql.raw(COUNTS.join(", "))})`.execute(
      db,
    );
  } else {
    await db.schema
      .createIndex("audience_days_by_dimension")
      .on("audience_days")
      .columns(["dimension", "day", "value", ...COUNTS])
      .execute();
  }
}
