/**
 * A site's audience figures written into a browser test file's database: 400 days of
 * daily rollups ending today (UTC), split over pages, entry pages, channels,
 * referrers, campaigns, devices and browsers in fixed shares, a few
 * converting visits counted into their rows (and their leads stored with
 * their sources), and the Insight issue the campaign links came from.
 * The numbers vary from day to day by rule, not by chance, so a spec sums
 * what it expects from the same rows.
 */
import type { DatabaseHandle } from "../../src/server/platform/db/connection.ts";
import type { AudienceDimension } from "../../src/server/platform/db/schema.ts";

const DAY_MS = 86_400_000;
export const dayAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);

export interface SeededDay {
  day: string;
  dimension: AudienceDimension;
  value: string;
  views: number;
  visits: number;
  visitors: number;
  conversions?: number;
  inquiries?: number;
  subscriptions?: number;
}

/** A converting visit: how many days ago, its goal, and where it came from. */
interface SeededLead {
  ago: number;
  goal: "inquiry" | "subscription";
  entry: string;
  channel: string;
  campaign: string | null;
}

/** Three inquiries and two subscriptions, each its visit's one conversion. */
const LEADS: SeededLead[] = [
  { ago: 1, goal: "inquiry", entry: "/weserve", channel: "search", campaign: null },
  {
    ago: 3,
    goal: "inquiry",
    entry: "/insight/q4-outlook",
    channel: "email",
    campaign: "q4-outlook",
  },
  { ago: 12, goal: "inquiry", entry: "/", channel: "direct", campaign: null },
  { ago: 2, goal: "subscription", entry: "/", channel: "search", campaign: null },
  {
    ago: 20,
    goal: "subscription",
    entry: "/insight/q4-outlook",
    channel: "email",
    campaign: "q4-outlook",
  },
];

/** The rows a lead's visit was counted in, as the server counts them (visits.ts). */
function visitRowsOf({ entry, channel, campaign }: SeededLead): [AudienceDimension, string][] {
  const rows: [AudienceDimension, string][] = [
    ["total", ""],
    ["entry", entry],
    ["channel", channel],
    ["referrer", channel === "search" ? "google.com" : ""],
    ["device", "desktop"],
    ["browser", "Chrome"],
  ];
  if (campaign) {
    rows.push(["utm_source", "insight"], ["utm_medium", "email"], ["utm_campaign", campaign]);
    rows.push(["insight", campaign]);
  }
  return rows;
}

const SHARES: [AudienceDimension, [string, number][]][] = [
  [
    "page",
    [
      ["/", 0.5],
      ["/weserve", 0.32],
      ["/wedo", 0.26],
      ["/weare", 0.18],
      ["/contact-us", 0.1],
      ["/insight/q4-outlook", 0.08],
    ],
  ],
  [
    "entry",
    [
      ["/", 0.55],
      ["/weserve", 0.2],
      ["/wedo", 0.12],
      ["/insight/q4-outlook", 0.08],
      ["/weare", 0.05],
    ],
  ],
  [
    "channel",
    [
      ["search", 0.46],
      ["direct", 0.28],
      ["social", 0.14],
      ["email", 0.08],
      ["other", 0.04],
    ],
  ],
  [
    "referrer",
    [
      ["google.com", 0.4],
      ["", 0.28],
      ["linkedin.com", 0.14],
      ["duckduckgo.com", 0.06],
      ["news.ycombinator.com", 0.04],
    ],
  ],
  [
    "utm_source",
    [
      ["insight", 0.08],
      ["linkedin", 0.05],
    ],
  ],
  [
    "utm_medium",
    [
      ["email", 0.08],
      ["social", 0.05],
    ],
  ],
  [
    "utm_campaign",
    [
      ["q4-outlook", 0.08],
      ["autumn-cases", 0.05],
    ],
  ],
  ["insight", [["q4-outlook", 0.08]]],
  [
    "device",
    [
      ["desktop", 0.62],
      ["mobile", 0.33],
      ["tablet", 0.05],
    ],
  ],
  [
    "browser",
    [
      ["Chrome", 0.55],
      ["Safari", 0.25],
      ["Firefox", 0.12],
      ["Edge", 0.08],
    ],
  ],
  [
    "funnel",
    [
      ["landing", 1],
      ["contact", 0.1],
    ],
  ],
];

/** The rows of 400 days ending today. */
export function audienceRows(days = 400): SeededDay[] {
  const rows: SeededDay[] = [];
  for (let ago = 0; ago < days; ago += 1) {
    const day = dayAgo(ago);
    // A weekly rhythm and a slow rise towards today.
    const visits = 40 + ((ago * 7) % 23) + Math.round((days - ago) / 20);
    const views = visits * 3 - (ago % 5);
    const visitors = visits - (ago % 4);
    rows.push({ day, dimension: "total", value: "", views, visits, visitors });
    for (const [dimension, shares] of SHARES) {
      for (const [value, share] of shares) {
        const part = Math.round(visits * share);
        if (part === 0) continue;
        rows.push({
          day,
          dimension,
          value,
          visits: part,
          views: Math.round(part * (dimension === "page" ? 1.4 : 3)),
          visitors: Math.max(1, part - (ago % 3)),
        });
      }
    }
  }
  // The hours of the last two days: quiet at night, busiest late morning (UTC).
  for (let ago = 0; ago < Math.min(2, days); ago += 1) {
    const day = dayAgo(ago);
    for (let hour = 0; hour < 24; hour += 1) {
      const visits = Math.round(8 * Math.exp(-(((hour - 11) / 4) ** 2)) + (hour % 3));
      if (visits === 0) continue;
      const value = String(hour).padStart(2, "0");
      rows.push({ day, dimension: "hour", value, views: visits * 3, visits, visitors: visits });
    }
  }
  for (const lead of LEADS) {
    const day = dayAgo(lead.ago);
    if (lead.ago >= days) continue;
    const led = lead.goal === "inquiry" ? { inquiries: 1 } : { subscriptions: 1 };
    for (const [dimension, value] of visitRowsOf(lead)) {
      const row = rows.find((r) => r.day === day && r.dimension === dimension && r.value === value);
      if (row) Object.assign(row, { conversions: 1, ...led });
    }
    if (lead.goal === "inquiry") {
      rows.push({ day, dimension: "funnel", value: "inquiry", views: 1, visits: 1, visitors: 0 });
    }
  }
  return rows;
}

/** A figure summed over the last `days` days (today included). */
export function sumOf(
  rows: SeededDay[],
  days: number,
  dimension: AudienceDimension,
  value: string,
  key: "views" | "visits" | "visitors",
): number {
  const since = dayAgo(days - 1);
  return rows
    .filter((row) => row.dimension === dimension && row.value === value && row.day >= since)
    .reduce((sum, row) => sum + row[key], 0);
}

export const INSIGHT_TITLE = "What the fourth quarter holds";

export async function writeAudience({ db }: DatabaseHandle, rows: SeededDay[]) {
  for (let start = 0; start < rows.length; start += 500) {
    await db
      .insertInto("audience_days")
      // SQLite takes a column one row leaves out as null, not as its default.
      .values(
        rows
          .slice(start, start + 500)
          .map((row) => ({ conversions: 0, inquiries: 0, subscriptions: 0, ...row })),
      )
      .execute();
  }
  const at = (ago: number) => `${dayAgo(ago)}T09:30:00.000Z`;
  let n = 0;
  const lead = (ago: number, entry: string, channel: string, campaign: string | null) => {
    n += 1;
    return {
      created_at: at(ago),
      updated_at: at(ago),
      source_entry_page: entry,
      source_channel: channel,
      source_referrer: channel === "search" ? "google.com" : null,
      source_utm_source: campaign ? "insight" : null,
      source_utm_medium: campaign ? "email" : null,
      source_utm_campaign: campaign,
      email: `lead-${n}@example.com`,
    };
  };
  const inquiry = (ago: number, entry: string, channel: string, campaign: string | null) => ({
    first_name: "Maya",
    last_name: "Okafor",
    company: "Northwind Logistics",
    job_title: "COO",
    phone_number: "",
    inquiry_type: "Digital Strategy",
    comments: "Could we talk about our data platform?",
    ...lead(ago, entry, channel, campaign),
  });
  await db
    .insertInto("inquiries")
    .values(
      LEADS.filter((l) => l.goal === "inquiry").map((l) =>
        inquiry(l.ago, l.entry, l.channel, l.campaign),
      ),
    )
    .execute();
  const subscription = (ago: number, entry: string, channel: string, campaign: string | null) => ({
    subscribed_at: at(ago),
    subscribed_via: "form",
    confirmed_at: at(ago),
    ...lead(ago, entry, channel, campaign),
  });
  await db
    .insertInto("subscriptions")
    .values(
      LEADS.filter((l) => l.goal === "subscription").map((l) =>
        subscription(l.ago, l.entry, l.channel, l.campaign),
      ),
    )
    .execute();
  const sent = `${dayAgo(30)}T08:00:00.000Z`;
  await db
    .insertInto("issues")
    .values({
      slug: "q4-outlook",
      title: INSIGHT_TITLE,
      summary: "Where budgets, hiring and cloud costs are heading.",
      body: "The quarter ahead.",
      status: "sent",
      author: "editor@firm.example",
      scheduled_at: null,
      started_at: sent,
      queued_all_at: sent,
      finished_at: sent,
      rate: 10,
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
      created_at: sent,
      updated_at: sent,
    })
    .execute();
}
