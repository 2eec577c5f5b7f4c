import { sql } from "kysely";
import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes, notNull } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
  // Double opt-in (NEWSLETTER_DOUBLE_OPT_IN): every address subscribed
  // before it existed counts as confirmed when it subscribed.
  await db.schema
    .alterTable("subscriptions")
    .addColumn("confirmed_at", types.timestamp as "text")
    .execute();
  await db
    .updateTable("subscriptions")
    .set({ confirmed_at: sql.ref("subscribed_at") })
    .execute();

  await types
    .withTimestamps(
      types
        .withId(db.schema.createTable("campaigns"))
        .addColumn("slug", "text", (c) => c.notNull().unique())
        .addColumn("title", "text", notNull)
        .addColumn("summary", "text", notNull)
        .addColumn("body", "text", notNull)
        .addColumn("status", "text", (c) =>
          c
            .notNull()
            .defaultTo("draft")
            .check(
              sql`status in ('draft', 'scheduled', 'queuing', 'sending', 'paused', 'sent', 'cancelled')`,
            ),
        )
        .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("scheduled_at", types.timestamp as "text")
        .addColumn("started_at", types.timestamp as "text")
        .addColumn("queued_all_at", types.timestamp as "text")
        .addColumn("finished_at", types.timestamp as "text")
        .addColumn("recipients", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("queue_cursor", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("rate", "integer")
        .addColumn("email_html", "text")
        .addColumn("email_text", "text")
        .addColumn("web_html", "text")
        .addColumn("locked_by", "text")
        .addColumn("locked_until", types.timestamp as "text")
        .addColumn("user_id", "integer")
        .addColumn("author", "text", notNull),
    )
    .execute();
  await db.schema
    .createIndex("campaigns_status")
    .on("campaigns")
    .columns(["status", "scheduled_at"])
    .execute();

  await db.schema.alterTable("outbox").addColumn("campaign_id", "integer").execute();
  await db.schema.alterTable("outbox").addColumn("subscription_id", "integer").execute();
  // At most one copy of an issue per subscription, whoever queues it and
  // however often queuing restarts: the schema decides, not a read.
  await db.schema
    .createIndex("outbox_campaign_recipient")
    .on("outbox")
    .columns(["campaign_id", "subscription_id"])
    .unique()
    .where(sql.ref("campaign_id"), "is not", null)
    .execute();
  // The console's progress counts, read from the index alone.
  await db.schema
    .createIndex("outbox_campaign_status")
    .on("outbox")
    .columns(["campaign_id", "status"])
    .where(sql.ref("campaign_id"), "is not", null)
    .execute();
}
