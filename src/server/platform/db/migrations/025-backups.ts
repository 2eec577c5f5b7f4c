import { sql } from "kysely";
import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes, notNull } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
  // One row per backup, from the console's schedule or the CLI: when
  // it began and ended, how it went and where the archive went. A
  // scheduled one names its slot, and the unique slot is what lets
  // one instance of several take it.
  await types
    .withId(db.schema.createTable("backups"))
    .addColumn("trigger", "text", (c) =>
      c.notNull().check(sql`trigger in ('scheduled', 'command')`),
    )
    .addColumn("slot", "text", (c) => c.unique())
    .addColumn("started_at", types.timestamp as "text", notNull)
    .addColumn("finished_at", types.timestamp as "text")
    .addColumn("result", "text", (c) => c.check(sql`result in ('ok', 'failed')`))
    .addColumn("reason", "text")
    .addColumn("file", "text")
    .addColumn("size", "bigint")
    .addColumn("copied_to", "text")
    .execute();
  await db.schema.createIndex("backups_started_at").on("backups").column("started_at").execute();
}
