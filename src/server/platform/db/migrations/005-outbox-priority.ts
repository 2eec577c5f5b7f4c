import { sql } from "kysely";
import type { AnyDb } from "./shared.ts";

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("outbox")
    .addColumn("priority", "text", (c) =>
      c.notNull().defaultTo("transactional").check(sql`priority in ('transactional', 'bulk')`),
    )
    .execute();
  // The claim asks for one status and one priority, due rows first due
  // first: this index hands them over in that order, so the engine
  // neither sorts the backlog nor reads past rows that are not due.
  await db.schema
    .createIndex("outbox_claim")
    .on("outbox")
    .columns(["status", "priority", "next_attempt_at", "id"])
    .execute();
  // It served the claim before priorities; left in place, SQLite's planner
  // could still pick it and sort the backlog.
  await db.schema.dropIndex("outbox_due").execute();
}
