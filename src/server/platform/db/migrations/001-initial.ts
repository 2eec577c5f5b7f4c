import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes, notNull } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  const types = columnTypes(engine);
  await types
    .withTimestamps(
      types
        .withId(db.schema.createTable("subscriptions"))
        .addColumn("email", "text", (c) => c.notNull().unique())
        .addColumn("subscribed_at", types.timestamp as "text", notNull)
        .addColumn("subscribed_via", "text", notNull)
        .addColumn("unsubscribed_at", types.timestamp as "text")
        .addColumn("unsubscribed_via", "text"),
    )
    .execute();

  await types
    .withTimestamps(
      types
        .withId(db.schema.createTable("inquiries"))
        .addColumn("first_name", "text", notNull)
        .addColumn("last_name", "text", notNull)
        .addColumn("company", "text", notNull)
        .addColumn("job_title", "text", notNull)
        .addColumn("email", "text", notNull)
        .addColumn("phone_number", "text", notNull)
        .addColumn("inquiry_type", "text", notNull)
        .addColumn("comments", "text", notNull),
    )
    .execute();

  await types
    .withTimestamps(
      types
        .withId(db.schema.createTable("team_members"))
        .addColumn("position", "integer", notNull)
        .addColumn("fullname", "text", (c) => c.notNull().unique())
        .addColumn("title", "text", notNull)
        .addColumn("image_path", "text", notNull)
        .addColumn("bio", "text", notNull),
    )
    .execute();

  await types
    .withTimestamps(
      types
        .withId(db.schema.createTable("content_items"))
        .addColumn("category", "text", notNull)
        .addColumn("position", "integer", notNull)
        .addColumn("name", "text", notNull)
        .addColumn("description", "text", notNull)
        .addColumn("image_path", "text")
        .addUniqueConstraint("content_items_category_name_unique", ["category", "name"]),
    )
    .execute();
  await db.schema
    .createIndex("content_items_category_position")
    .on("content_items")
    .columns(["category", "position"])
    .execute();

  await types
    .withTimestamps(
      db.schema
        .createTable("site_meta")
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("value", "text", notNull),
    )
    .execute();
}
