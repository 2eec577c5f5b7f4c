import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  // The topics the subscribe page offers, as the firm names them in the
  // console (its industries, its capabilities, or its own words), in the
  // order they were added; a name once.
  await columnTypes(engine)
    .withId(db.schema.createTable("topics"))
    .addColumn("name", "text", (c) => c.notNull().unique())
    .execute();
  // The topics each subscriber chose when subscribing: gone with the
  // subscriber, and with the topic when the firm removes it. The second
  // index finds a topic's people, for a send to it.
  await db.schema
    .createTable("subscription_topics")
    .addColumn("subscription_id", "integer", (c) =>
      c.notNull().references("subscriptions.id").onDelete("cascade"),
    )
    .addColumn("topic_id", "integer", (c) =>
      c.notNull().references("topics.id").onDelete("cascade"),
    )
    .addPrimaryKeyConstraint("subscription_topics_pk", ["subscription_id", "topic_id"])
    .execute();
  await db.schema
    .createIndex("subscription_topics_by_topic")
    .on("subscription_topics")
    .columns(["topic_id", "subscription_id"])
    .execute();
}
