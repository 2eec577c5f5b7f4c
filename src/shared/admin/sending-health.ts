/**
 * The console's "Sending health" page, for owners: the checks of the firm's
 * domain (SPF, DKIM, DMARC, the bounce domain's MX) with the records to
 * publish, what came back about the mail sent, against the limits mailbox
 * providers hold bulk senders to, and what the bounce mailbox set aside.
 */
import { z } from "zod";
import { ADMIN_API } from "./auth.ts";
import { listPageSchema, pageNumberSchema } from "./list-page.ts";
import type { RouteSlice } from "./route-entry.ts";
import { REPORT_KINDS } from "./suppressions.ts";

export const SENDING_HEALTH_PATH = `${ADMIN_API}/sending-health`;

/** Mail from the bounce mailbox that was kept and shown, not acted on. */
export const SET_ASIDE_PATH = `${SENDING_HEALTH_PATH}/set-aside`;

export const SET_ASIDE_PAGE_SIZE = 20;

/** Gmail's and Yahoo's limits on spam complaints for bulk senders, in percent. */
export const COMPLAINT_LIMITS = { aimBelow: 0.1, neverAbove: 0.3 } as const;

const recordSchema = z.object({
  type: z.enum(["TXT", "MX"]),
  name: z.string(),
  value: z.string(),
});

export const domainCheckSchema = z.object({
  name: z.enum(["spf", "dkim", "dmarc", "bounce-mx"]),
  state: z.enum(["pass", "warn", "fail"]),
  found: z.string().nullable(),
  detail: z.string(),
  publish: recordSchema.nullable(),
});

export const deliveryFiguresSchema = z.object({
  /**
   * Copies the mail server accepted or, while `mailOnlyToFolder`, that were
   * written to the mail folder (which delivers nothing).
   */
  delivered: z.number(),
  hardBounces: z.number(),
  softBounces: z.number(),
  complaints: z.number(),
  /** Percent of the delivered copies; null when nothing was delivered. */
  hardBounceRate: z.number().nullable(),
  complaintRate: z.number().nullable(),
});
export type DeliveryFigures = z.infer<typeof deliveryFiguresSchema>;

export const sendingHealthSchema = z.object({
  /** Null when the DNS could not be asked (the reason is in `checksUnavailable`). */
  checks: domainCheckSchema.array().nullable(),
  checksUnavailable: z.string().nullable(),
  /** No mail server is set: every message is only written to the mail folder on the server. */
  mailOnlyToFolder: z.boolean(),
  lastThirtyDays: deliveryFiguresSchema.extend({ suppressed: z.number() }),
  issues: deliveryFiguresSchema
    .extend({ id: z.number(), title: z.string(), finishedAt: z.string().nullable() })
    .array(),
});
export type SendingHealth = z.infer<typeof sendingHealthSchema>;

export const setAsideQuerySchema = z.object({
  page: pageNumberSchema,
});

export const setAsideRowSchema = z.object({
  id: z.number(),
  /** An unverified report, or a message that could not be read. */
  state: z.enum(["unverified", "unreadable"]),
  receivedAt: z.string(),
  /** The address an unverified report names; null when it names none, or unreadable. */
  email: z.string().nullable(),
  kind: z.enum(REPORT_KINDS).nullable(),
  status: z.string().nullable(),
  /** Why it was not acted on, in a sentence. */
  why: z.string(),
  /** An unverified report's own words; empty for an unreadable message. */
  text: z.string(),
});
export type SetAsideRow = z.infer<typeof setAsideRowSchema>;

export const setAsideListSchema = listPageSchema(setAsideRowSchema);
export type SetAsideList = z.infer<typeof setAsideListSchema>;

/**
 * This area's entries of the console's route map (console-routes.ts):
 * The sending-health page and the mails set aside.
 */
export const SENDING_HEALTH_CONSOLE_ROUTES = {
  "health.show": {
    method: "GET",
    path: SENDING_HEALTH_PATH,
    status: 200,
    response: sendingHealthSchema,
  },
  "health.setAside": {
    method: "GET",
    path: SET_ASIDE_PATH,
    query: setAsideQuerySchema,
    status: 200,
    response: setAsideListSchema,
  },
} as const satisfies RouteSlice;
