import { sql } from "kysely";
import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes, notNull } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
  await types
    .withTimestamps(
      types
        .withId(db.schema.createTable("outbox"))
        .addColumn("kind", "text", notNull)
        .addColumn("message", "text", notNull)
        .addColumn("status", "text", (c) =>
          c.notNull().check(sql`status in ('pending', 'sent', 'failed')`),
        )
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("next_attempt_at", types.timestamp as "text", notNull)
        .addColumn("locked_until", types.timestamp as "text")
        .addColumn("locked_by", "text")
        .addColumn("last_error", "text")
        .addColumn("sent_at", types.timestamp as "text"),
    )
    .execute();
  await db.schema
    .createIndex("outbox_due")
    .on("outbox")
    .columns(["status", "next_attempt_at"])
    .execute();
}
