import { sql } from "kysely";
import type { AnyDb } from "./shared.ts";

export async function up(db: AnyDb): Promise<void> {
  // The links of a sent issue's e-mail, numbered in the order they first
  // appear: each copy links to the site's own redirect for a link, the same
  // for every reader, and the redirect leads on to the address kept here.
  await db.schema
    .createTable("issue_links")
    .addColumn("issue_id", "integer", (c) =>
      c.notNull().references("issues.id").onDelete("cascade"),
    )
    .addColumn("position", "integer", (c) => c.notNull().check(sql`position > 0`))
    .addColumn("url", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("issue_links_pk", ["issue_id", "position"])
    .execute();
  // How often each link was followed, a day at a time: the link and the
  // day, never who. One statement adds a click (an upsert on the key).
  await db.schema
    .createTable("issue_link_clicks")
    .addColumn("issue_id", "integer", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("clicks", "bigint", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("issue_link_clicks_pk", ["issue_id", "position", "day"])
    .addForeignKeyConstraint(
      "issue_link_clicks_link",
      ["issue_id", "position"],
      "issue_links",
      ["issue_id", "position"],
      (c) => c.onDelete("cascade"),
    )
    .execute();
  // The issue whose copy's unsubscribe link ended a subscription: the
  // newest issue sent to it when it ended by its link or by a mail
  // program's one-click; null for every other event.
  await db.schema
    .alterTable("subscription_events")
    .addColumn("issue_id", "integer", (c) => c.references("issues.id").onDelete("set null"))
    .execute();
  await db.schema
    .createIndex("subscription_events_by_issue")
    .on("subscription_events")
    .columns(["issue_id", "event"])
    .execute();
  // Which issue that was is found among the subscription's own copies.
  await db.schema
    .createIndex("outbox_by_subscription")
    .on("outbox")
    .columns(["subscription_id", "sent_at"])
    .execute();
}
