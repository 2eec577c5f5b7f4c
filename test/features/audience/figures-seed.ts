/** Rollup rows and Insight issues, written straight into a test's database. */
import type { DatabaseHandle } from "../../../src/server/platform/db/connection.ts";
import type { AudienceDimension } from "../../../src/server/platform/db/schema.ts";

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

export async function writeIssue({ db }: DatabaseHandle, slug: string, title: string) {
  const at = "2026-11-01T09:00:00.000Z";
  await db
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
    .execute();
}
