import { sql } from "kysely";
import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
  // An inquiry names its notification to the firm, so the inbox can
  // tell whether the firm was told. Inquiries from before have none.
  await db.schema
    .alterTable("inquiries")
    .addColumn("notification_outbox_id", "integer", (c) =>
      c.references("outbox.id").onDelete("set null"),
    )
    .execute();
  await db.schema
    .alterTable("inquiries")
    .addColumn("notification_alarmed_at", types.timestamp as "text")
    .execute();
  await db.schema
    .createIndex("inquiries_notification")
    .on("inquiries")
    .column("notification_outbox_id")
    .unique()
    .execute();
  // The inbox asks, for each inquiry shown, whether a hard bounce came
  // back for its notification.
  await db.schema
    .createIndex("delivery_reports_outbox")
    .on("delivery_reports")
    .columns(["outbox_id", "kind"])
    .where(sql.ref("outbox_id"), "is not", null)
    .execute();
}
