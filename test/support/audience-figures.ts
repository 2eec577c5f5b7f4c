/** Rollup rows and Insight issues, written straight into a test's database. */
import type { DatabaseHandle } from "../../src/server/platform/db/connection.ts";
import type { AudienceDimension } from "../../src/server/platform/db/schema.ts";

export interface DayRow {
  day: string;
  dimension: AudienceDimension;
  value?: string;
  views?: number;
  visits?: number;
  visitors?: number;
  /** Visits of the row that sent an inquiry or subscribed, and the leads they made. */
  conversions?: number;
  inquiries?: number;
  subscriptions?: number;
}

export async function writeDays({ db }: DatabaseHandle, rows: DayRow[]) {
  const none = { value: "", views: 0, visits: 0, visitors: 0 };
  const led = { conversions: 0, inquiries: 0, subscriptions: 0 };
  await db
    .insertInto("audience_days")
    .values(rows.map((row) => ({ ...none, ...led, ...row })))
    .execute();
}

/** A sent issue; its id. */
export async function writeIssue(
  { db }: DatabaseHandle,
  slug: string,
  title: string,
): Promise<number> {
  const at = "2026-11-01T09:00:00.000Z";
  const row = await db
    .insertInto("issues")
    .values({
      slug,
      title,
      summary: "A summary.",
      body: "A body.",
      author: "editor@firm.example",
      scheduled_at: null,
      started_at: at,
      queued_all_at: null,
      finished_at: null,
      rate: null,
      email_html: null,
      email_text: null,
      web_html: null,
      locked_by: null,
      locked_until: null,
      user_id: null,
      paused_reason: null,
      guard_since: null,
      withdrawn_at: null,
      corrected_at: null,
      archive_changed_at: null,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An issue's first link, followed `clicks` times on each day given. */
export async function writeClicks(
  { db }: DatabaseHandle,
  issueId: number,
  days: Record<string, number>,
) {
  await db
    .insertInto("issue_links")
    .values({ issue_id: issueId, position: 1, url: "https://elsewhere.example/report" })
    .execute();
  await db
    .insertInto("issue_link_clicks")
    .values(
      Object.entries(days).map(([day, clicks]) => ({
        issue_id: issueId,
        position: 1,
        day,
        clicks,
      })),
    )
    .execute();
}
