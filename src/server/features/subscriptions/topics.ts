/**
 * The topics a subscriber chooses on the subscribe page: the firm names
 * them in the console; a visitor ticks some when subscribing; a send may go
 * to those who chose some (segments.ts). The topics are site content: they
 * change through app.content.edit, so every instance's subscribe page
 * shows the change at once.
 */
import { type Kysely, sql } from "kysely";
import { TOPICS_MAX, type Topic } from "../../../shared/subscription.ts";
import { insertBelowLimit } from "../../platform/db/capped-insert.ts";
import type { Database } from "../../platform/db/schema.ts";

type Db = Kysely<Database>;

/** The topics offered, in the order they were added. */
export function listTopics(db: Db): Promise<Topic[]> {
  return db.selectFrom("topics").select(["id", "name"]).orderBy("id").execute();
}

/** Adds a topic: the topic, "taken" when one has the name already, or "full" at TOPICS_MAX. */
export async function addTopic(db: Db, name: string): Promise<Topic | "taken" | "full"> {
  const id = await insertBelowLimit(db, { table: "topics", column: "name" }, name, TOPICS_MAX);
  return typeof id === "number" ? { id, name } : id;
}

/** Removes a topic, and with it every subscriber's choice of it; false when it was gone. */
export async function removeTopic(db: Db, id: number): Promise<Topic | undefined> {
  return db.deleteFrom("topics").where("id", "=", id).returning(["id", "name"]).executeTakeFirst();
}

/**
 * Records the topics a subscription chose as it began (or began again, when
 * the former choice goes), in its write's transaction: those of `ids` still
 * offered (one the firm removed meanwhile names nothing to choose).
 */
export async function chooseTopics(db: Db, subscriptionId: number, ids: readonly number[]) {
  await db
    .deleteFrom("subscription_topics")
    .where("subscription_id", "=", subscriptionId)
    .execute();
  if (ids.length === 0) return;
  await db
    .insertInto("subscription_topics")
    .columns(["subscription_id", "topic_id"])
    .expression(
      db
        .selectFrom("topics")
        .select([sql<number>`cast(${subscriptionId} as integer)`.as("subscription_id"), "id"])
        .where("id", "in", ids),
    )
    .execute();
}

/** The names of the topics a subscription chose, in the topics' order. */
export async function chosenTopics(db: Db, subscriptionId: number): Promise<string[]> {
  const rows = await db
    .selectFrom("subscription_topics")
    .innerJoin("topics", "topics.id", "subscription_topics.topic_id")
    .select("topics.name")
    .where("subscription_topics.subscription_id", "=", subscriptionId)
    .orderBy("topics.id")
    .execute();
  return rows.map((row) => row.name);
}

/** Every subscription's chosen topics' names, by its id, in the topics' order: the export's column. */
export async function topicsBySubscription(db: Db): Promise<Map<number, string[]>> {
  const rows = await db
    .selectFrom("subscription_topics")
    .innerJoin("topics", "topics.id", "subscription_topics.topic_id")
    .select(["subscription_topics.subscription_id", "topics.name"])
    .orderBy("topics.id")
    .execute();
  const topics = new Map<number, string[]>();
  for (const row of rows) {
    const list = topics.get(row.subscription_id) ?? [];
    list.push(row.name);
    topics.set(row.subscription_id, list);
  }
  return topics;
}
