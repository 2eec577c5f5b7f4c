/**
 * The Insight archive as the site shows it: an issue is published once its
 * sending began (started_at) and while it was not cancelled, with the web
 * page rendered from its Markdown when the send was asked for (web_html).
 * Drafts, scheduled issues and cancelled sends are never read here.
 */
import type { Kysely, NotNull } from "kysely";
import type { IssueStatus } from "../../../shared/admin/newsletter.ts";
import type { InsightIssue, InsightSummary } from "../../../shared/insight.ts";
import type { Database } from "../../platform/db/schema.ts";

/** A send that began and goes on, waits, or is done; "cancelled" withdraws the issue. */
export const PUBLISHED_STATUSES = [
  "queuing",
  "sending",
  "paused",
  "sent",
] as const satisfies readonly IssueStatus[];

function publishedIssues(db: Kysely<Database>) {
  return db
    .selectFrom("issues")
    .where("started_at", "is not", null)
    .where("status", "in", PUBLISHED_STATUSES)
    .where("web_html", "is not", null);
}

const SUMMARY_COLUMNS = ["slug", "title", "summary", "started_at"] as const;

function summaryOf(row: {
  slug: string;
  title: string;
  summary: string;
  started_at: string;
}): InsightSummary {
  return {
    slug: row.slug,
    title: row.title,
    summary: row.summary,
    publishedAt: row.started_at,
  };
}

/** Every published issue, newest first, without its body. */
export async function listPublishedIssues(db: Kysely<Database>): Promise<InsightSummary[]> {
  const rows = await publishedIssues(db)
    .select(SUMMARY_COLUMNS)
    .$narrowType<{ started_at: NotNull }>()
    .orderBy("started_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map(summaryOf);
}

/** One published issue with its body, or null when no published issue has this slug. */
export async function readPublishedIssue(
  db: Kysely<Database>,
  slug: string,
): Promise<InsightIssue | null> {
  const row = await publishedIssues(db)
    .select([...SUMMARY_COLUMNS, "web_html"])
    .$narrowType<{ started_at: NotNull; web_html: NotNull }>()
    .where("slug", "=", slug)
    .executeTakeFirst();
  return row ? { ...summaryOf(row), html: row.web_html } : null;
}
