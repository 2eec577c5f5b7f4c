import type { AnyDb } from "./shared.ts";

export async function up(db: AnyDb): Promise<void> {
  // A subscriber is a person: a name, and the fields their former list kept
  // of them (a JSON object of header to text, '{}' when none), as an
  // import brought them or the firm wrote them.
  await db.schema.alterTable("subscriptions").addColumn("first_name", "text").execute();
  await db.schema.alterTable("subscriptions").addColumn("last_name", "text").execute();
  await db.schema
    .alterTable("subscriptions")
    .addColumn("fields", "text", (c) => c.notNull().defaultTo("{}"))
    .execute();
  // The tags the firm, or the former list, gave a subscriber: one row per
  // tag, gone with the subscriber. The second index finds a tag's people.
  await db.schema
    .createTable("subscription_tags")
    .addColumn("subscription_id", "integer", (c) =>
      c.notNull().references("subscriptions.id").onDelete("cascade"),
    )
    .addColumn("tag", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("subscription_tags_pk", ["subscription_id", "tag"])
    .execute();
  await db.schema
    .createIndex("subscription_tags_by_tag")
    .on("subscription_tags")
    .columns(["tag", "subscription_id"])
    .execute();
}
