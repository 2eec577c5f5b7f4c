/** Rollup rows and leads with sources, written straight into a test's database. */
import type { DatabaseHandle } from "../../../src/server/platform/db/connection.ts";
import type { AudienceDimension } from "../../../src/server/platform/db/schema.ts";

export interface DayRow {
  day: string;
  dimension: AudienceDimension;
  value?: string;
  views?: number;
  visits?: number;
  visitors?: number;
}

export async function writeDays({ db }: DatabaseHandle, rows: DayRow[]) {
  await db
    .insertInto("audience_days")
    .values(
      rows.map(({ day, dimension, value = "", views = 0, visits = 0, visitors = 0 }) => ({
        day,
        dimension,
        value,
        views,
        visits,
        visitors,
      })),
    )
    .execute();
}

export interface Source {
  entry?: string;
  referrer?: string;
  channel?: string;
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
}

const sourceColumns = (source: Source) => ({
  source_entry_page: source.entry ?? null,
  source_referrer: source.referrer ?? null,
  source_channel: source.channel ?? null,
  source_utm_source: source.utmSource ?? null,
  source_utm_medium: source.utmMedium ?? null,
  source_utm_campaign: source.utmCampaign ?? null,
});

let made = 0;

export async function writeInquiry(
  { db }: DatabaseHandle,
  at: string,
  source: Source,
  status: "new" | "spam" = "new",
) {
  made += 1;
  await db
    .insertInto("inquiries")
    .values({
      first_name: "Ada",
      last_name: `Lead ${made}`,
      company: "Example Ltd",
      job_title: "Director",
      email: `lead-${made}@example.com`,
      phone_number: "",
      inquiry_type: "Digital Strategy",
      comments: "We would like to talk.",
      status,
      created_at: at,
      updated_at: at,
      ...sourceColumns(source),
    })
    .execute();
}

export async function writeSubscription(
  { db }: DatabaseHandle,
  at: string,
  source: Source,
  confirmed = true,
) {
  made += 1;
  await db
    .insertInto("subscriptions")
    .values({
      email: `reader-${made}@example.com`,
      subscribed_at: at,
      subscribed_via: "form",
      confirmed_at: confirmed ? at : null,
      unsubscribed_at: null,
      unsubscribed_via: null,
      created_at: at,
      updated_at: at,
      ...sourceColumns(source),
    })
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
