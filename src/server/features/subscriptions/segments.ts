/**
 * Who an issue goes to: the active subscribers (statuses.ts), all of them or
 * a segment by the tags the firm gave them. The send's queuing, the send
 * dialog's count and the tag list all read it from here, so the number the
 * editor confirms is the number of copies queued at that moment.
 */
import type { ExpressionBuilder, Kysely, SelectQueryBuilder } from "kysely";
import type { Segment } from "../../../shared/admin/newsletter.ts";
import { TAGS_LISTED, type TagCount } from "../../../shared/admin/subscribers.ts";
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

/** The condition a subscription in `segment` meets: one of its tags (any), or each (all). */
function inSegment(eb: Subscriptions, segment: Segment) {
  return segment.match === "any"
    ? taggedWithOneOf(eb, segment.tags)
    : eb.and(segment.tags.map((tag) => taggedWithOneOf(eb, [tag])));
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
