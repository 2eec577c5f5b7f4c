/**
 * The Insight archive as the site shows it: an issue is published once its
 * sending began (started_at) and while it was neither cancelled nor withdrawn,
 * with the web page rendered from its Markdown when the send was asked for,
 * or when its page was last corrected (web_html). Drafts, scheduled issues
 * and cancelled sends are never read here; a withdrawn issue only by its slug,
 * so that its address can say it is gone.
 */
import type { Kysely, NotNull } from "kysely";
import type { IssueStatus } from "../../../shared/admin/newsletter.ts";
import type { InsightIssue, InsightSummary } from "../../../shared/insight.ts";
import { fillMergeFields } from "../../../shared/merge-fields.ts";
import type { Database } from "../../platform/db/schema.ts";

/** A send that began and goes on, waits, or is done; "cancelled" withdraws the issue. */
export const PUBLISHED_STATUSES = [
  "queuing",
  "sending",
  "paused",
  "sent",
] as const satisfies readonly IssueStatus[];

/** Issues whose send began and was not cancelled, withdrawn ones included. */
function archivedIssues(db: Kysely<Database>) {
  return db
    .selectFrom("issues")
    .where("started_at", "is not", null)
    .where("status", "in", PUBLISHED_STATUSES)
    .where("web_html", "is not", null);
}

function publishedIssues(db: Kysely<Database>) {
  return archivedIssues(db).where("withdrawn_at", "is", null);
}

const SUMMARY_COLUMNS = ["slug", "title", "summary", "started_at", "corrected_at"] as const;

function summaryOf(row: {
  slug: string;
  title: string;
  summary: string;
  started_at: string;
  corrected_at: string | null;
}): InsightSummary {
  return {
    slug: row.slug,
    // The archive has no reader: a merge field reads its fallback.
    title: fillMergeFields(row.title),
    summary: fillMergeFields(row.summary),
    publishedAt: row.started_at,
    ...(row.corrected_at ? { correctedAt: row.corrected_at } : {}),
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

/** The slugs of the issues withdrawn from the archive: their addresses answer 410 Gone. */
export async function listWithdrawnSlugs(db: Kysely<Database>): Promise<string[]> {
  const rows = await archivedIssues(db)
    .select("slug")
    .where("withdrawn_at", "is not", null)
    .execute();
  return rows.map((row) => row.slug);
}
