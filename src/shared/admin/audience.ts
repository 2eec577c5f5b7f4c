/**
 * The console's Audience area (viewers and up): the site's counted visits
 * over a range of UTC days beside the period of equal length before it,
 * the daily series, the breakdowns (pages, entry pages, channels,
 * referrers, UTM tags, devices, browsers, Insight issues) and the leads
 * they brought. The console's screen, its API client and the server's
 * routes use these definitions.
 */
import { z } from "zod";
import { CHANNEL_LABELS, type Channel } from "../lead-source.ts";
import { idParamsSchema } from "../row-id.ts";
import { ruledText } from "../schemas.ts";
import { ADMIN_API } from "./auth.ts";
import type { RecordId, RouteSlice } from "./route-entry.ts";

const BASE = `${ADMIN_API}/audience`;

export const AUDIENCE_PATHS = {
  overview: BASE,
  breakdown: `${BASE}/breakdown`,
  export: `${BASE}/export.csv`,
  live: `${BASE}/live`,
  goals: `${BASE}/goals`,
  goal: (id: number | ":id") => `${BASE}/goals/${id}`,
} as const;

/** The screen's path in the console, also linked from the weekly digest. */
export const AUDIENCE_SCREEN = "audience";
export const AUDIENCE_LABEL = "Audience";

export const RANGES = ["today", "7d", "30d", "12m", "custom"] as const;
export type RangeName = (typeof RANGES)[number];

export const RANGE_LABELS: Record<RangeName, string> = {
  today: "Today",
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "12m": "Last 12 months",
  custom: "Custom",
};

/** The longest custom range, in days: two years, so a year can sit beside the one before. */
export const LONGEST_RANGE_DAYS = 731;

export const AUDIENCE_TEXTS = {
  customNeedsDays: "A custom range needs both its first and its last day.",
  fromAfterTo: "The first day must not be after the last day.",
  tooLong: `A range can be at most ${LONGEST_RANGE_DAYS} days long.`,
  badDay: "Give a day as YYYY-MM-DD.",
} as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day, YYYY-MM-DD. */
export const daySchema = z
  .string()
  .regex(DAY, AUDIENCE_TEXTS.badDay)
  .refine((day) => {
    const at = new Date(`${day}T00:00:00.000Z`);
    return !Number.isNaN(at.getTime()) && at.toISOString().startsWith(day);
  }, AUDIENCE_TEXTS.badDay);

/** Days between two YYYY-MM-DD days, `to` included. */
export function daysBetween(from: string, to: string): number {
  return (
    Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1
  );
}

const rangeFields = {
  range: z.enum(RANGES).default("7d"),
  from: daySchema.optional(),
  to: daySchema.optional(),
};

type RangeFields = { range: RangeName; from?: string | undefined; to?: string | undefined };

function checkRange(query: RangeFields, context: z.RefinementCtx) {
  if (query.range !== "custom") return;
  if (!query.from || !query.to) {
    context.addIssue({ code: "custom", path: ["from"], message: AUDIENCE_TEXTS.customNeedsDays });
    return;
  }
  if (query.from > query.to) {
    context.addIssue({ code: "custom", path: ["from"], message: AUDIENCE_TEXTS.fromAfterTo });
  } else if (daysBetween(query.from, query.to) > LONGEST_RANGE_DAYS) {
    context.addIssue({ code: "custom", path: ["to"], message: AUDIENCE_TEXTS.tooLong });
  }
}

/** Which days: a named range ending today (UTC), or a custom one (`from` and `to` included). */
export const rangeQuerySchema = z.object(rangeFields).superRefine(checkRange);
export type RangeQuery = z.infer<typeof rangeQuerySchema>;

/** The dimensions a breakdown table lists. */
export const BREAKDOWNS = [
  "page",
  "entry",
  "channel",
  "referrer",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "device",
  "browser",
  "insight",
] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];

/**
 * The breakdowns whose rows say what their visits led to: those a visit is
 * counted in once, from its start. Not the pages, which a visit passes
 * through.
 */
export const WITH_LEADS: readonly Breakdown[] = BREAKDOWNS.filter(
  (breakdown) => breakdown !== "page",
);

/** What a breakdown's values are, as a sentence names many of them. */
export const VALUE_NOUNS: Record<Breakdown, string> = {
  page: "pages",
  entry: "entry pages",
  channel: "channels",
  referrer: "referrers",
  utm_source: "UTM sources",
  utm_medium: "UTM media",
  utm_campaign: "UTM campaigns",
  device: "devices",
  browser: "browsers",
  insight: "Insight campaigns",
};

export const BREAKDOWN_TITLES: Record<Breakdown, string> = {
  page: "Top pages",
  entry: "Entry pages",
  channel: "Channels",
  referrer: "Referrers",
  utm_source: "UTM sources",
  utm_medium: "UTM media",
  utm_campaign: "UTM campaigns",
  device: "Devices",
  browser: "Browsers",
  insight: "Visits from Insight issues",
};

/** The most rows a breakdown answers with (the CSV holds them all). */
export const BREAKDOWN_LIMIT_MAX = 100;
export const BREAKDOWN_LIMIT_DEFAULT = 10;

export const breakdownQuerySchema = z
  .object({
    ...rangeFields,
    dimension: z.enum(BREAKDOWNS),
    limit: z.coerce.number().int().min(1).max(BREAKDOWN_LIMIT_MAX).default(BREAKDOWN_LIMIT_DEFAULT),
  })
  .superRefine(checkRange);
export type BreakdownQuery = z.infer<typeof breakdownQuerySchema>;

/** The tables a CSV can be had of: each breakdown, the daily series and the funnel. */
export const EXPORTS = [...BREAKDOWNS, "daily", "hourly", "funnel"] as const;
export type ExportTable = (typeof EXPORTS)[number];

export const exportQuerySchema = z
  .object({ ...rangeFields, table: z.enum(EXPORTS) })
  .superRefine(checkRange);
export type ExportQuery = z.infer<typeof exportQuerySchema>;

const periodSchema = z.object({
  from: z.string(),
  to: z.string(),
  days: z.number(),
});
export type Period = z.infer<typeof periodSchema>;

const totalsSchema = z.object({
  /** The sum of each day's distinct visitors: one person on two days is two. */
  visitors: z.number(),
  views: z.number(),
  visits: z.number(),
  /** Null without visits. */
  viewsPerVisit: z.number().nullable(),
  inquiries: z.number(),
  subscriptions: z.number(),
  /** The share of visits that sent an inquiry or subscribed; null without visits. */
  conversionRate: z.number().nullable(),
});
export type Totals = z.infer<typeof totalsSchema>;

const dayFiguresSchema = z.object({
  day: z.string(),
  visitors: z.number(),
  views: z.number(),
  visits: z.number(),
});
export type DayFigures = z.infer<typeof dayFiguresSchema>;

const hourFiguresSchema = z.object({
  /** The UTC hour, "00" to "23". */
  hour: z.string(),
  visitors: z.number(),
  views: z.number(),
  visits: z.number(),
});
export type HourFigures = z.infer<typeof hourFiguresSchema>;

const funnelSchema = z.object({
  /** Every visit. */
  landing: z.number(),
  /** Visits that reached the contact page. */
  contact: z.number(),
  /** Visits that reached the contact page and sent an inquiry. */
  inquiries: z.number(),
});
export type Funnel = z.infer<typeof funnelSchema>;

export const overviewSchema = z.object({
  period: periodSchema,
  previousPeriod: periodSchema,
  totals: totalsSchema,
  previous: totalsSchema,
  /** One entry per day of the period, oldest first; a day with nothing counted has zeros. */
  series: dayFiguresSchema.array(),
  /** For a range of one day, its 24 UTC hours, first to last; null for a longer one. */
  hours: hourFiguresSchema.array().nullable(),
  funnel: funnelSchema,
  previousFunnel: funnelSchema,
});
export type Overview = z.infer<typeof overviewSchema>;

const leadsSchema = z.object({
  inquiries: z.number(),
  subscriptions: z.number(),
  /** The share of the row's visits that sent an inquiry or subscribed; null without visits. */
  rate: z.number().nullable(),
});

export const breakdownRowSchema = z.object({
  value: z.string(),
  /**
   * For the insight breakdown, the issue whose slug the row is, and the
   * clicks its e-mail's links had in the period (ADR 083); null elsewhere
   * or when no issue has the slug.
   */
  issue: z.object({ id: z.number(), title: z.string(), clicks: z.number() }).nullable(),
  visitors: z.number(),
  views: z.number(),
  visits: z.number(),
  /** For the breakdowns a visit is counted in from its start (WITH_LEADS); null for the pages. */
  leads: leadsSchema.nullable(),
});
export type BreakdownRow = z.infer<typeof breakdownRowSchema>;

/** A day on which a dimension met more values than it keeps (AUDIENCE_VALUES_PER_DAY). */
const cappedDaySchema = z.object({
  day: z.string(),
  /** How many values the day kept; the rest are counted under OTHER_VALUE. */
  values: z.number(),
});
export type CappedDay = z.infer<typeof cappedDaySchema>;

/** The value the values past a day's cap are counted under. */
export const OTHER_VALUE = "(other)";

export const breakdownSchema = z.object({
  dimension: z.enum(BREAKDOWNS),
  period: periodSchema,
  rows: breakdownRowSchema.array(),
  /** How many values the period has in all (the rows are the first `limit`). */
  values: z.number(),
  /** The period's days on which the dimension reached its cap, oldest first. */
  capped: cappedDaySchema.array(),
});
export type BreakdownAnswer = z.infer<typeof breakdownSchema>;

/** The live figure's span: the visitors with a counted view in this many last minutes. */
export const LIVE_MINUTES = 30;
/** How often the screen asks for it again while in view. */
export const LIVE_EVERY_MS = 30_000;

export const liveSchema = z.object({
  visitors: z.number(),
  /** False when AUDIENCE_COUNTING is off: nobody is counted, now or ever. */
  counting: z.boolean(),
});
export type Live = z.infer<typeof liveSchema>;

/** The pages a firm may count as goals, beside the two built in. */
export const GOALS_MAX = 20;
export const GOAL_PATH_MAX = 200;

export const GOAL_TEXTS = {
  pathMissing: "Write the page's path, e.g. /weserve.",
  pathSlash: "Start the path with /, e.g. /weserve.",
  pathWhole: "Leave out what follows ? or #: a goal is a page, whatever its query.",
  pathLong: `Keep the path to ${GOAL_PATH_MAX} characters or fewer.`,
  pathTaken: "This page is a goal already.",
  tooMany: `The Audience area counts at most ${GOALS_MAX} page goals: remove one first.`,
  notFound: "This goal does not exist. It may have been removed.",
} as const;

/**
 * A page goal's path, as the rollups keep a page (the audience's `pagePath`):
 * from its first slash, without query or fragment, and without a trailing
 * slash but the root's, so "/weserve/" is the page "/weserve".
 */
export const goalPathSchema = ruledText("text", GOAL_TEXTS.pathMissing)
  .trim()
  .min(1, GOAL_TEXTS.pathMissing)
  .max(GOAL_PATH_MAX, GOAL_TEXTS.pathLong)
  .refine((path) => path.startsWith("/"), GOAL_TEXTS.pathSlash)
  .refine((path) => !path.includes("?") && !path.includes("#"), GOAL_TEXTS.pathWhole)
  .transform((path) => (path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path));

export const newGoalSchema = z.object({ path: goalPathSchema });
export type NewGoal = z.input<typeof newGoalSchema>;

/** A page goal as kept. */
export const goalSchema = z.object({ id: z.number(), path: z.string() });
export type Goal = z.infer<typeof goalSchema>;

export const GOAL_KINDS = ["inquiry", "subscription", "page"] as const;

/**
 * A goal over the period: how often it was reached, and the share of the
 * period's visits that did. A page is reached by the visits that viewed
 * it (each once); the inquiry and the subscription by the leads counted
 * visits sent, so a visit that sent two inquiries counts two.
 */
export const goalFiguresSchema = z.object({
  /** The page goal's id; null for the two built in. */
  id: z.number().nullable(),
  kind: z.enum(GOAL_KINDS),
  /** The page's path; null for the two built in. */
  path: z.string().nullable(),
  reached: z.number(),
  /** `reached` per visit of the period; null without visits. */
  rate: z.number().nullable(),
});
export type GoalFigures = z.infer<typeof goalFiguresSchema>;

export const goalsSchema = z.object({
  period: periodSchema,
  visits: z.number(),
  goals: goalFiguresSchema.array(),
});
export type GoalsAnswer = z.infer<typeof goalsSchema>;

export const GOAL_LABELS: Record<Exclude<GoalFigures["kind"], "page">, string> = {
  inquiry: "Sent an inquiry",
  subscription: "Subscribed to Insight",
};

/**
 * A figure beside the period before, as the screen and the digest say it:
 * "+12%", "−5%", "±0%"; "new" when the period before had none, "–" when
 * neither had any.
 */
export function changeText(current: number, previous: number): string {
  if (previous === 0) return current === 0 ? "–" : "new";
  const percent = Math.round(((current - previous) / previous) * 100);
  if (percent === 0) return "±0%";
  return percent > 0 ? `+${percent}%` : `−${Math.abs(percent)}%`;
}

/** How a breakdown's value is shown: an empty referrer is a visit that named none. */
export function valueLabel(dimension: Breakdown, value: string): string {
  if (dimension === "channel" && value in CHANNEL_LABELS) return CHANNEL_LABELS[value as Channel];
  if (value !== "") return value;
  return dimension === "referrer" ? "(no referrer)" : "(none)";
}

/**
 * This area's entries of the console's route map (console-routes.ts):
 * The Audience area's overview, breakdowns and goals, each over a range of days, the visitors of the last minutes, and the page goals added and removed.
 */
export const AUDIENCE_CONSOLE_ROUTES = {
  "audience.overview": {
    method: "GET",
    path: AUDIENCE_PATHS.overview,
    query: rangeQuerySchema,
    status: 200,
    response: overviewSchema,
  },
  "audience.breakdown": {
    method: "GET",
    path: AUDIENCE_PATHS.breakdown,
    query: breakdownQuerySchema,
    status: 200,
    response: breakdownSchema,
  },
  "audience.live": {
    method: "GET",
    path: AUDIENCE_PATHS.live,
    status: 200,
    response: liveSchema,
  },
  "audience.goals": {
    method: "GET",
    path: AUDIENCE_PATHS.goals,
    query: rangeQuerySchema,
    status: 200,
    response: goalsSchema,
  },
  "audience.addGoal": {
    method: "POST",
    path: AUDIENCE_PATHS.goals,
    body: newGoalSchema,
    status: 201,
    response: goalSchema,
  },
  "audience.removeGoal": {
    method: "DELETE",
    path: ({ id }: RecordId) => AUDIENCE_PATHS.goal(id),
    status: 204,
  },
} as const satisfies RouteSlice;

export const goalIdSchema = idParamsSchema;
