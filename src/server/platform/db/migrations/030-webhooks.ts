import { sql } from "kysely";
import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes, notNull } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
  // The addresses the firm's own tools are told at (outgoing
  // webhooks): which events each hears, its body format, and the
  // secret its deliveries are signed with (shown to owners, so kept).
  await types
    .withTimestamps(
      types
        .withId(db.schema.createTable("webhook_endpoints"))
        .addColumn("name", "text", notNull)
        .addColumn("url", "text", notNull)
        .addColumn("events", "text", notNull)
        .addColumn("format", "text", (c) => c.notNull().check(sql`format in ('slack', 'json')`))
        .addColumn("enabled", "integer", notNull)
        .addColumn("secret", "text", notNull),
    )
    .execute();
  // One row per event and endpoint, queued in the transaction of the
  // write that caused the event and delivered by a worker, as the
  // outbox is: claimed with a lease, retried with back-off, its
  // latest answers kept for the console's log.
  await types
    .withTimestamps(
      types
        .withId(db.schema.createTable("webhook_deliveries"))
        .addColumn("endpoint_id", "integer", (c) =>
          c.notNull().references("webhook_endpoints.id").onDelete("cascade"),
        )
        .addColumn("event", "text", notNull)
        .addColumn("webhook_id", "text", (c) => c.notNull().unique())
        .addColumn("payload", "text", notNull)
        // The lower-cased e-mail address the body names, so erasing that
        // person reaches the deliveries about them too.
        .addColumn("address", "text")
        .addColumn("status", "text", (c) =>
          c.notNull().check(sql`status in ('pending', 'delivered', 'failed')`),
        )
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("next_attempt_at", types.timestamp as "text", notNull)
        .addColumn("locked_by", "text")
        .addColumn("locked_until", types.timestamp as "text")
        .addColumn("answers", "text", (c) => c.notNull().defaultTo("[]"))
        .addColumn("delivered_at", types.timestamp as "text"),
    )
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_claim")
    .on("webhook_deliveries")
    .columns(["status", "next_attempt_at"])
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_endpoint")
    .on("webhook_deliveries")
    .columns(["endpoint_id", "id"])
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_address")
    .on("webhook_deliveries")
    .column("address")
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_created")
    .on("webhook_deliveries")
    .column("created_at")
    .execute();
}
