/**
 * Reading the audit log: the search the owner types (text, action, a date
 * range, a page) and the page of entries the server answers with.
 */
import { z } from "zod";
import { ruledText } from "../schemas.ts";
import { ADMIN_API } from "./auth.ts";
import type { RouteSlice } from "./route-entry.ts";

export const AUDIT_PATH = `${ADMIN_API}/audit`;

/** Every action the audit log records: a closed list, so a misspelt one does not compile. */
export const AUDIT_ACTIONS = [
  "sign-in",
  "sign-in-failed",
  "sign-in-locked",
  "sign-out",
  "sign-out-everywhere",
  "owner-created",
  "password-link-issued",
  "password-reset-requested",
  "password-reset",
  "password-changed",
  "password-change-refused",
  "second-factor-enabled",
  "second-factor-disabled",
  "second-factor-off-refused",
  "second-factor-requirement",
  "invitation-accepted",
  "invitation-resent",
  "person-invited",
  "person-removed",
  "role-changed",
  "inquiry-status-changed",
  "inquiry-assigned",
  "inquiry-unassigned",
  "inquiry-note-added",
  "inquiries-exported",
  "inquiry-erased",
  "turned-away-released",
  "turned-away-deleted",
  "subscriber-edited",
  "topic-added",
  "topic-removed",
  "subscriber-unsubscribed",
  "subscriber-erased",
  "subscribers-exported",
  "subscribers-imported",
  "suppression-lifted",
  "suppressions-exported",
  "audience-exported",
  "audience-goal-added",
  "audience-goal-removed",
  "content-created",
  "content-saved",
  "content-restored",
  "content-reordered",
  "content-hidden",
  "content-shown",
  "content-imported",
  "content-draft-discarded",
  "content-published",
  "content-publish-scheduled",
  "content-publish-unscheduled",
  "content-publish-held",
  "media-uploaded",
  "issue-created",
  "issue-edited",
  "issue-deleted",
  "issue-test-sent",
  "issue-scheduled",
  "issue-unscheduled",
  "issue-sent",
  "issue-paused",
  "issue-resumed",
  "issue-cancelled",
  "issue-page-corrected",
  "issue-page-restored",
  "issue-withdrawn",
  "issue-put-back",
  "mail-settings-saved",
  "mail-test-sent",
  "webhook-added",
  "webhook-changed",
  "webhook-removed",
  "webhook-secret-shown",
  "webhook-secret-rotated",
  "webhook-test-sent",
  "backup-started",
  "backup-downloaded",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_PAGE_SIZE = 50;

const optionalText = (max: number) =>
  ruledText("text")
    .trim()
    .max(max, `Use at most ${max} characters.`)
    .transform((value) => value || undefined)
    .optional();

/**
 * `from` and `to` are instants (ISO), worked out by the console from the
 * dates the owner picked in their own time zone; `to` is not included.
 */
export const auditQuerySchema = z
  .object({
    q: optionalText(200),
    action: optionalText(60),
    from: z.iso.datetime({ offset: true, message: "Enter a date." }).optional(),
    to: z.iso.datetime({ offset: true, message: "Enter a date." }).optional(),
    page: z.coerce.number().int().min(1).max(100_000).default(1),
  })
  .refine((query) => !query.from || !query.to || Date.parse(query.from) < Date.parse(query.to), {
    path: ["to"],
    message: "The end date comes before the start date.",
  });
export type AuditQuery = z.input<typeof auditQuerySchema>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  ip: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntryView = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Every action on record, for the filter's choices. */
  actions: z.array(z.string()),
  retentionDays: z.number().int(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

/**
 * This area's entries of the console's route map (console-routes.ts):
 * The audit log's search.
 */
export const AUDIT_CONSOLE_ROUTES = {
  "audit.search": {
    method: "GET",
    path: AUDIT_PATH,
    query: auditQuerySchema,
    status: 200,
    response: auditPageSchema,
  },
} as const satisfies RouteSlice;
