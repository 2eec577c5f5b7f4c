import { sql } from "kysely";
import type { Engine } from "../connection.ts";
import type { AnyDb } from "./shared.ts";

const DIMENSIONS = sql`dimension in ('total', 'page', 'entry', 'channel', 'referrer', 'utm_source', 'utm_medium', 'utm_campaign', 'device', 'browser', 'funnel', 'insight', 'hour')`;

const COUNTS = ["views", "visits", "visitors", "conversions", "inquiries", "subscriptions"];

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  // Each UTC hour of a day ("00" to "23") is a value of a dimension of
  // its own, so a single day's figures can be drawn hour by hour.
  if (engine === "postgres") {
    const { rows } = await sql<{ name: string }>`
      select conname as name from pg_constraint
      where conrelid = 'audience_days'::regclass and contype = 'c'
        and pg_get_constraintdef(oid) like '%dimension%'
    `.execute(db);
    for (const { name } of rows) {
      await sql`alter table audience_days drop constraint ${sql.id(name)}`.execute(db);
    }
    await sql`alter table audience_days add constraint audience_days_dimension check (${DIMENSIONS})`.execute(
      db,
    );
    return;
  }
  // SQLite cannot change a table's check: the table is made again with the
  // new one, its rows copied, and its index made again.
  await db.schema
    .createTable("audience_days_next")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("dimension", "text", (c) => c.notNull().check(DIMENSIONS))
    .addColumn("value", "text", (c) => c.notNull())
    .$call((table) => {
      let next = table;
      for (const column of COUNTS) {
        next = next.addColumn(column, "bigint", (c) => c.notNull().defaultTo(0));
      }
      return next;
    })
    .addPrimaryKeyConstraint("audience_days_key", ["day", "dimension", "value"])
    .execute();
  const columns = sql.raw(["day", "dimension", "value", ...COUNTS].join(", "));
  await sql`insert into audience_days_next (${columns}) select ${columns} from audience_days`.execute(
    db,
  );
  await db.schema.dropTable("audience_days").execute();
  await db.schema.alterTable("audience_days_next").renameTo("audience_days").execute();
  await db.schema
    .createIndex("audience_days_by_dimension")
    .on("audience_days")
    .columns(["dimension", "day", "value", ...COUNTS])
    .execute();
}
