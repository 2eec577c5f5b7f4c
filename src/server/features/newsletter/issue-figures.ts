/**
 * What one issue brought (ADR 083), read for its page in the console: what
 * came back about its copies, the unsubscribes put down to it, its links'
 * clicks, and the visits its links brought with the leads they made. Every
 * figure is a count of copies, links or visits; none names a reader.
 */
import type { Kysely } from "kysely";
import type { IssueFigures } from "../../../shared/admin/newsletter.ts";
import type { Database } from "../../platform/db/schema.ts";
import { insightTotals } from "../audience/index.ts";
import { issueDeliveryFigures } from "../deliverability/index.ts";

async function linkClicks(db: Kysely<Database>, issueId: number) {
  const rows = await db
    .selectFrom("issue_links")
    .leftJoin("issue_link_clicks", (join) =>
      join
        .onRef("issue_link_clicks.issue_id", "=", "issue_links.issue_id")
        .onRef("issue_link_clicks.position", "=", "issue_links.position"),
    )
    .select((eb) => [
      "issue_links.position",
      "issue_links.url",
      eb.fn.sum<number | string | null>("issue_link_clicks.clicks").as("clicks"),
    ])
    .where("issue_links.issue_id", "=", issueId)
    .groupBy(["issue_links.position", "issue_links.url"])
    .orderBy("issue_links.position")
    .execute();
  return rows.map((row) => ({
    position: row.position,
    url: row.url,
    clicks: Number(row.clicks ?? 0),
  }));
}

async function unsubscribes(db: Kysely<Database>, issueId: number): Promise<number> {
  const row = await db
    .selectFrom("subscription_events")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("issue_id", "=", issueId)
    .where("event", "=", "unsubscribed")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function issueFigures(
  db: Kysely<Database>,
  issue: { id: number; slug: string },
): Promise<IssueFigures> {
  const [delivery, unsubscribed, links, brought] = await Promise.all([
    issueDeliveryFigures(db, issue.id),
    unsubscribes(db, issue.id),
    linkClicks(db, issue.id),
    insightTotals(db, issue.slug),
  ]);
  return { delivery, unsubscribed, clicksCounted: links.length > 0, links, ...brought };
}
