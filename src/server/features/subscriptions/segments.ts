/**
 * Who an issue goes to: the active subscribers (statuses.ts), all of them or
 * a segment by the tags the firm gave them and the topics they chose. The send's queuing, the send
 * dialog's count and the tag list all read it from here, so the number the
 * editor confirms is the number of copies queued at that moment.
 */
import type { ExpressionBuilder, Kysely, SelectQueryBuilder } from "kysely";
import type { Segment } from "../../../shared/admin/newsletter.ts";
import { TAGS_LISTED, type TagCount, type TopicCount } from "../../../shared/admin/subscribers.ts";
import type { Database } from "../../platform/db/schema.ts";
import { onlyActive } from "./statuses.ts";

type Subscriptions = ExpressionBuilder<Database, "subscriptions">;

/** Has one of `tags`: one EXISTS on the (subscription_id, tag) key. */
function taggedWithOneOf(eb: Subscriptions, tags: readonly string[]) {
  return eb.exists(
    eb
      .selectFrom("subscription_tags")
      .select("subscription_tags.tag")
      .whereRef("subscription_tags.subscription_id", "=", "subscriptions.id")
      .where("subscription_tags.tag", "in", tags),
  );
}

/** Chose one of the topics `ids`: one EXISTS on the (subscription_id, topic_id) key. */
function choseOneOf(eb: Subscriptions, ids: readonly number[]) {
  return eb.exists(
    eb
      .selectFrom("subscription_topics")
      .select("subscription_topics.topic_id")
      .whereRef("subscription_topics.subscription_id", "=", "subscriptions.id")
      .where("subscription_topics.topic_id", "in", ids),
  );
}

/**
 * The condition a subscription in `segment` meets: one of its tags or
 * topics (any), or each of them (all).
 */
function inSegment(eb: Subscriptions, { match, tags, topics }: Segment) {
  if (match === "any") {
    return eb.or([
      ...(tags.length > 0 ? [taggedWithOneOf(eb, tags)] : []),
      ...(topics.length > 0 ? [choseOneOf(eb, topics)] : []),
    ]);
  }
  return eb.and([
    ...tags.map((tag) => taggedWithOneOf(eb, [tag])),
    ...topics.map((id) => choseOneOf(eb, [id])),
  ]);
}

/** Narrows a query on subscriptions to an issue's recipients: active, and in `segment` when there is one. */
export function onlyRecipients<O>(
  query: SelectQueryBuilder<Database, "subscriptions", O>,
  segment: Segment | null,
) {
  const active = onlyActive(query);
  return segment ? active.where((eb) => inSegment(eb, segment)) : active;
}

/** How many an issue to `segment` would go to now. */
export async function countRecipients(
  db: Kysely<Database>,
  segment: Segment | null,
): Promise<number> {
  const row = await onlyRecipients(
    db.selectFrom("subscriptions").select((eb) => eb.fn.countAll<number | string>().as("count")),
    segment,
  ).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The tags active subscribers have, with how many have each, most used first. */
export async function tagCounts(db: Kysely<Database>): Promise<TagCount[]> {
  const rows = await db
    .selectFrom("subscription_tags")
    .select(["tag", (eb) => eb.fn.countAll<number | string>().as("active")])
    .where("subscription_id", "in", onlyActive(db.selectFrom("subscriptions").select("id")))
    .groupBy("tag")
    .orderBy("active", "desc")
    .orderBy("tag")
    .limit(TAGS_LISTED)
    .execute();
  return rows.map((row) => ({ tag: row.tag, active: Number(row.active) }));
}

/** Each topic offered, with how many active subscribers chose it, in the topics' order. */
export async function topicCounts(db: Kysely<Database>): Promise<TopicCount[]> {
  const rows = await db
    .selectFrom("topics")
    .leftJoin("subscription_topics", (join) =>
      join
        .onRef("subscription_topics.topic_id", "=", "topics.id")
        .on(
          "subscription_topics.subscription_id",
          "in",
          onlyActive(db.selectFrom("subscriptions").select("id")),
        ),
    )
    .select((eb) => [
      "topics.id",
      "topics.name",
      eb.fn.count<number | string>("subscription_topics.subscription_id").as("active"),
    ])
    .groupBy(["topics.id", "topics.name"])
    .orderBy("topics.id")
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.name, active: Number(row.active) }));
}
