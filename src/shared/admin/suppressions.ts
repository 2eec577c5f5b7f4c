/**
 * The console's suppression list: its paths, payloads and texts, used by the
 * screen, its client and the server's routes alike. An address is on the
 * list when a report said it bounced for good, bounced again and again, or
 * complained (ADR 031); an owner may lift it.
 */
import { z } from "zod";
import { idParamsSchema } from "../row-id.ts";
import { ADMIN_API } from "./auth.ts";
import { listPageSchema, pageNumberSchema } from "./list-page.ts";
import type { RecordId, RouteSlice } from "./route-entry.ts";
import { subscriberFilterSchema } from "./subscribers.ts";

const BASE = `${ADMIN_API}/suppressions`;

/** The server's routes; `:id` is a suppression's id. */
export const SUPPRESSION_ROUTES = {
  list: BASE,
  export: `${BASE}/export.csv`,
  one: `${BASE}/:id`,
} as const;

export function suppressionPath(id: number): string {
  return `${BASE}/${id}`;
}

export const SUPPRESSION_REASONS = ["hard-bounce", "complaint", "soft-bounces"] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];
export const REASON_FILTERS = ["all", ...SUPPRESSION_REASONS] as const;
export type ReasonFilter = (typeof REASON_FILTERS)[number];

export const REASON_LABELS: Record<ReasonFilter, string> = {
  all: "All reasons",
  "hard-bounce": "Hard bounce",
  complaint: "Complaint",
  "soft-bounces": "Repeated soft bounces",
};

export const REPORT_KINDS = ["hard", "soft", "complaint"] as const;

export const REPORT_KIND_LABELS: Record<(typeof REPORT_KINDS)[number], string> = {
  hard: "Hard bounce",
  soft: "Soft bounce",
  complaint: "Complaint",
};

const WEBHOOK_PREFIX = "webhook:";

/** The mail providers whose webhooks report, as they write their names. */
const PROVIDER_NAMES: Record<string, string> = {
  mailgun: "Mailgun",
  sendgrid: "SendGrid",
  resend: "Resend",
};

/** How a report arrived, in words: `smtp`, `mailbox` or `webhook:<provider>` as stored. */
export function sourceLabel(source: string): string {
  if (source === "smtp") return "Refused while sending";
  if (source === "mailbox") return "Bounce mailbox";
  if (!source.startsWith(WEBHOOK_PREFIX)) return source;
  const provider = source.slice(WEBHOOK_PREFIX.length);
  return `${PROVIDER_NAMES[provider] ?? provider} webhook`;
}

/** The list's filter, as the URL's query carries it (list and export alike). */
export const suppressionFilterSchema = z.object({
  q: subscriberFilterSchema.shape.q,
  reason: z.enum(REASON_FILTERS).catch("all"),
});
export type SuppressionFilter = z.infer<typeof suppressionFilterSchema>;

export const suppressionListQuerySchema = suppressionFilterSchema.extend({
  page: pageNumberSchema,
});

export const suppressionIdSchema = idParamsSchema;

export const deliveryReportSchema = z.object({
  kind: z.enum(REPORT_KINDS),
  /** The enhanced status (5.1.1) or the reply code; none for a complaint. */
  status: z.string().nullable(),
  source: z.string(),
  receivedAt: z.string(),
  /** The Insight issue the reported message carried; its title is gone if it was deleted. */
  issue: z.object({ id: z.number(), title: z.string().nullable() }).nullable(),
  /** The report's own words, as the receiving server or the provider wrote them. */
  text: z.string(),
});
export type DeliveryReportView = z.infer<typeof deliveryReportSchema>;

export const suppressionRowSchema = z.object({
  id: z.number(),
  email: z.string(),
  reason: z.enum(SUPPRESSION_REASONS),
  since: z.string(),
  /** The report that decided it; none when it is no longer kept. */
  report: deliveryReportSchema.nullable(),
});
export type SuppressionRow = z.infer<typeof suppressionRowSchema>;

export const suppressionListSchema = listPageSchema(suppressionRowSchema);
export type SuppressionList = z.infer<typeof suppressionListSchema>;

export const SUPPRESSION_TEXTS = {
  empty: "No address is suppressed. Addresses that bounce or complain appear here.",
  noMatch: "No suppressed address matches this search.",
  notFound: "This address is not on the suppression list: it may have been lifted already.",
  lifted: (email: string) =>
    `${email} is no longer suppressed: Insight and other mail go to it again.`,
} as const;

/**
 * This area's entries of the console's route map (console-routes.ts):
 * The suppression list's pages, and an address lifted off it.
 */
export const SUPPRESSION_CONSOLE_ROUTES = {
  "suppressions.list": {
    method: "GET",
    path: SUPPRESSION_ROUTES.list,
    query: suppressionListQuerySchema,
    status: 200,
    response: suppressionListSchema,
  },
  "suppressions.lift": {
    method: "DELETE",
    path: ({ id }: RecordId) => suppressionPath(id),
    status: 204,
  },
} as const satisfies RouteSlice;
