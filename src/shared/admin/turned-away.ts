/**
 * The posts the forms' traps turned away, kept TURNED_AWAY_RETENTION_DAYS
 * (30 unless set) so that one a person sent can still be released (ADR 036):
 * the console's paths, what it shows of each and its words.
 */
import { z } from "zod";
import {
  DEFENDED_FORMS,
  type DefendedForm,
  TRAP_REASONS,
  type TrapReason,
} from "../bot-defence.ts";
import { INQUIRY_FIELDS, type InquiryField } from "../inquiry.ts";
import { idParamsSchema } from "../row-id.ts";
import { SUBSCRIBE_EMAIL_FIELD } from "../subscription.ts";
import { ADMIN_API } from "./auth.ts";
import { leadSourceViewSchema } from "./lead-source.ts";
import { pageNumberSchema } from "./list-page.ts";
import type { RecordId, RouteSlice } from "./route-entry.ts";

const BASE = `${ADMIN_API}/turned-away`;

/** The server's routes; `:id` is a kept post's id. */
export const TURNED_AWAY_ROUTES = {
  list: BASE,
  one: `${BASE}/:id`,
  release: `${BASE}/:id/release`,
} as const;

export function turnedAwayPath(id: number, action?: "release"): string {
  return action ? `${BASE}/${id}/${action}` : `${BASE}/${id}`;
}

export const turnedAwayIdSchema = idParamsSchema;

/**
 * Posts per page: the server's number, which no query changes. A post holds
 * a form's fields, each within its own limit, so a page stays a few hundred
 * kilobytes however many posts a script has sent.
 */
export const TURNED_AWAY_PAGE_SIZE = 25;

/** Which page of the list, newest first: 1 unless the address names another. */
export const turnedAwayListQuerySchema = z.object({
  page: pageNumberSchema,
});

export const turnedAwayPostSchema = z.object({
  id: z.number().int(),
  form: z.enum(DEFENDED_FORMS),
  reason: z.enum(TRAP_REASONS),
  /** How long after its page's token the post came. */
  seconds: z.number(),
  /** Through the page's script or a form posted without JavaScript (CONSENT_VIA). */
  via: z.string(),
  /** The fields as the post gave them, by their names on the form. */
  fields: z.record(z.string(), z.string()),
  /**
   * The visit's source the post came with (shared/lead-source.ts), kept with
   * its fields so that a released post stores it as it would have.
   */
  source: leadSourceViewSchema.optional(),
  receivedAt: z.string(),
});
export type TurnedAwayPost = z.infer<typeof turnedAwayPostSchema>;

export const turnedAwayListSchema = z.object({
  days: z.number().int(),
  /** One page of the posts, newest first. */
  posts: z.array(turnedAwayPostSchema),
  /** How many are kept in all. */
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

export const releasedSchema = z.object({ message: z.string() });

export const FORM_LABELS: Record<DefendedForm, string> = {
  inquiry: "Inquiry",
  subscription: "Subscription",
};

/** Why a post was turned away, in words, with how soon it came. */
export function reasonText(reason: TrapReason, seconds: number): string {
  const after = `${seconds.toFixed(1)} s after its page opened`;
  return reason === "honeypot" ? `Filled the hidden trap field (${after})` : `Too fast: ${after}`;
}

/** The label of a field on its form. */
export function fieldLabel(name: string): string {
  if (name === SUBSCRIBE_EMAIL_FIELD) return "E-mail address";
  return INQUIRY_FIELDS[name as InquiryField]?.label ?? name;
}

export const TURNED_AWAY_TEXTS = {
  notFound: "This turned-away post is no longer kept: it was released, deleted or purged.",
  releasedInquiry: "Released: the inquiry is in the inbox and the firm is notified.",
  releasedSubscription: "Released: the address is subscribed and its e-mail is on its way.",
  alreadySubscribed:
    "Released: this address was already subscribed to Insight, so nothing new was stored.",
  deleted: "Deleted the turned-away post.",
} as const;

/**
 * This area's entries of the console's route map (console-routes.ts):
 * The posts the forms turned away: their page, one released or deleted.
 */
export const TURNED_AWAY_CONSOLE_ROUTES = {
  "turnedAway.list": {
    method: "GET",
    path: TURNED_AWAY_ROUTES.list,
    query: turnedAwayListQuerySchema,
    status: 200,
    response: turnedAwayListSchema,
  },
  "turnedAway.release": {
    method: "POST",
    path: ({ id }: RecordId) => turnedAwayPath(id, "release"),
    status: 200,
    response: releasedSchema,
  },
  "turnedAway.delete": {
    method: "DELETE",
    path: ({ id }: RecordId) => turnedAwayPath(id),
    status: 204,
  },
} as const satisfies RouteSlice;
