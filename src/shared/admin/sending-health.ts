/**
 * The console's "Sending health" page, for owners: the checks of the firm's
 * domain (SPF, DKIM, DMARC, the bounce domain's MX) with the records to
 * publish, and what came back about the mail sent, against the limits
 * mailbox providers hold bulk senders to.
 */
import { z } from "zod";
import { ADMIN_API } from "./auth.ts";

export const SENDING_HEALTH_PATH = `${ADMIN_API}/sending-health`;

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
  /** Copies the receiving servers accepted. */
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
  lastThirtyDays: deliveryFiguresSchema.extend({ suppressed: z.number() }),
  issues: deliveryFiguresSchema
    .extend({ id: z.number(), title: z.string(), finishedAt: z.string().nullable() })
    .array(),
});
export type SendingHealth = z.infer<typeof sendingHealthSchema>;
