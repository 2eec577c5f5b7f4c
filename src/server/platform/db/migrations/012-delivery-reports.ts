import { sql } from "kysely";
import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes, notNull } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
  await types
    .withId(db.schema.createTable("delivery_reports"))
    .addColumn("email", "text", notNull)
    .addColumn("kind", "text", notNull)
    .addColumn("status", "text")
    .addColumn("source", "text", notNull)
    .addColumn("source_key", "text", (c) => c.unique())
    .addColumn("outbox_id", "integer")
    .addColumn("message_kind", "text")
    .addColumn("issue_id", "integer")
    .addColumn("text", "text", notNull)
    .addColumn("received_at", types.timestamp as "text", notNull)
    .execute();
  // Soft bounces are counted per address over the last days.
  await db.schema
    .createIndex("delivery_reports_email")
    .on("delivery_reports")
    .columns(["email", "kind", "received_at"])
    .execute();
  await db.schema
    .createIndex("delivery_reports_issue")
    .on("delivery_reports")
    .columns(["issue_id", "kind"])
    .where(sql.ref("issue_id"), "is not", null)
    .execute();
  await types
    .withId(db.schema.createTable("suppressions"))
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("reason", "text", notNull)
    .addColumn("report_id", "integer")
    .addColumn("created_at", types.timestamp as "text", notNull)
    .execute();
}
