/**
 * The inquiries inbox's paths, payloads and words: one definition used by
 * the console's screens, its client and the server's routes.
 */
import { z } from "zod";
import { INQUIRY_FIELDS } from "../inquiry.ts";
import { idParamsSchema, rowNumberSchema } from "../row-id.ts";
import { ruledText } from "../schemas.ts";
import { ADMIN_API } from "./auth.ts";
import { confirmAddressSchema } from "./erasure.ts";
import { leadSourceDetailSchema } from "./lead-source.ts";
import type { RecordId, RouteSlice } from "./route-entry.ts";

const ROOT = `${ADMIN_API}/inquiries`;

export const INQUIRY_PATHS = {
  list: ROOT,
  /** The current filter's rows as a CSV download. */
  export: `${ROOT}/export.csv`,
  /** How many inquiries have each status: the console's "N new" at a glance. */
  counts: `${ROOT}/counts`,
  /** The people an inquiry can be assigned to. */
  assignees: `${ROOT}/assignees`,
  /** How many inquiries nobody has opened since their notification failed: the console's banner. */
  unnotified: `${ROOT}/unnotified`,
  one: `${ROOT}/:id`,
  status: `${ROOT}/:id/status`,
  assignee: `${ROOT}/:id/assignee`,
  notes: `${ROOT}/:id/notes`,
} as const;

/** A path of INQUIRY_PATHS with its `:id` filled in. */
export function inquiryPath(path: string, id: number): string {
  return path.replace(":id", String(id));
}

export const INQUIRY_STATUSES = ["new", "in-progress", "answered", "closed", "spam"] as const;
export type InquiryStatus = (typeof INQUIRY_STATUSES)[number];

export const STATUS_LABELS: Record<InquiryStatus, string> = {
  new: "New",
  "in-progress": "In progress",
  answered: "Answered",
  closed: "Closed",
  spam: "Spam",
};

/**
 * Whether the firm was told of an inquiry: its notification waits to be
 * sent (or to be tried again), the mail server took it, or it failed: given
 * up on, or bounced for good afterwards.
 */
export const NOTIFICATION_STATES = ["pending", "sent", "failed"] as const;
export type NotificationState = (typeof NOTIFICATION_STATES)[number];

export const INBOX_PAGE_SIZE = 50;
export const NOTE_MAX = 5000;
export const SEARCH_MAX = 200;

export const INBOX_TEXTS = {
  notFound: "This inquiry does not exist. It may have been removed.",
  unknownPerson: "That person has no console account. Choose someone from the list.",
  noteEmpty: "Write the note first.",
  noteTooLong: `Keep a note to ${NOTE_MAX} characters.`,
  erased: (email: string, inquiries: number) =>
    `Erased what ${email} sent: ${inquiries === 1 ? "1 inquiry" : `${inquiries} inquiries`}, with their notes and the e-mails about them.`,
} as const;

/** What an erasure deleted, for the console's message. */
export const inquirerErasureSchema = z.object({
  inquiries: z.number().int(),
  mailDeleted: z.number().int(),
});
export type InquirerErasureView = z.infer<typeof inquirerErasureSchema>;

// ---- Requests ----

/** The list's filter (also the export's): each part optional; an empty value means "any". */
export const inquiryFilterSchema = z.object({
  // Any type an inquiry may carry: those on offer change with the firm's
  // capabilities, and an old inquiry keeps the type it was sent with.
  type: ruledText("text")
    .trim()
    .max(
      INQUIRY_FIELDS.inquiryType.maxLength,
      `must be at most ${INQUIRY_FIELDS.inquiryType.maxLength} characters`,
    )
    .optional(),
  status: z.enum(INQUIRY_STATUSES, { error: "is not a status" }).optional(),
  q: ruledText("text")
    .trim()
    .max(SEARCH_MAX, `must be at most ${SEARCH_MAX} characters`)
    .optional(),
});
export type InquiryFilter = z.infer<typeof inquiryFilterSchema>;

export const inquiryListQuerySchema = inquiryFilterSchema.extend({
  page: z.coerce.number().int().min(1, "must be 1 or more").default(1),
});
export type InquiryListQuery = z.input<typeof inquiryListQuerySchema>;

export const inquiryIdSchema = idParamsSchema;

export const statusChangeSchema = z.strictObject({
  status: z.enum(INQUIRY_STATUSES, { error: "Choose one of the statuses." }),
});
export type StatusChange = z.infer<typeof statusChangeSchema>;

/** Whom to assign to: a console account's id, or null to unassign. */
export const assignmentSchema = z.strictObject({
  assigneeId: rowNumberSchema.nullable(),
});
export type Assignment = z.infer<typeof assignmentSchema>;

export const noteSchema = z.strictObject({
  body: ruledText("multiline")
    .trim()
    .min(1, INBOX_TEXTS.noteEmpty)
    .max(NOTE_MAX, INBOX_TEXTS.noteTooLong),
});
export type NewNote = z.infer<typeof noteSchema>;

// ---- Answers ----

export const personSchema = z.object({ id: z.number(), name: z.string(), email: z.string() });
export type Person = z.infer<typeof personSchema>;

export const inquirySummarySchema = z.object({
  id: z.number(),
  receivedAt: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  company: z.string(),
  email: z.string(),
  inquiryType: z.string(),
  status: z.enum(INQUIRY_STATUSES),
  assignee: personSchema.nullable(),
  notified: z.enum(NOTIFICATION_STATES),
});
export type InquirySummary = z.infer<typeof inquirySummarySchema>;

export const statusCountsSchema = z.object(
  Object.fromEntries(INQUIRY_STATUSES.map((status) => [status, z.number()])) as Record<
    InquiryStatus,
    z.ZodNumber
  >,
);
export type StatusCounts = z.infer<typeof statusCountsSchema>;

export const inboxCountsSchema = z.object({ counts: statusCountsSchema });

export const unnotifiedSchema = z.object({ unseen: z.number().int() });

/** The console's banner while inquiries whose notification failed wait for someone to open them. */
export function unnotifiedBanner(unseen: number): string {
  return unseen === 1
    ? "The firm was not told of 1 inquiry: its notification e-mail failed."
    : `The firm was not told of ${unseen} inquiries: their notification e-mail failed.`;
}

/** The badge of an inquiry whose notification failed. */
export const NOT_NOTIFIED_LABEL = "Not notified";

export const inquiryPageSchema = z.object({
  inquiries: z.array(inquirySummarySchema),
  page: z.number(),
  pageSize: z.number(),
  /** How many match the whole filter. */
  total: z.number(),
  /** How many match the type and text filter, per status (the status filter aside). */
  counts: statusCountsSchema,
  /** The types to filter by: those on offer now, then any other found on stored inquiries. */
  types: z.array(z.string()),
});
export type InquiryPage = z.infer<typeof inquiryPageSchema>;

export const noteViewSchema = z.object({
  id: z.number(),
  author: z.string(),
  createdAt: z.string(),
  body: z.string(),
});
export type NoteView = z.infer<typeof noteViewSchema>;

export const inquiryDetailSchema = inquirySummarySchema.extend({
  jobTitle: z.string(),
  phoneNumber: z.string(),
  comments: z.string(),
  /** The visit that brought it (lead-source.ts); null when unknown. */
  source: leadSourceDetailSchema,
  notes: z.array(noteViewSchema),
});
export type InquiryDetail = z.infer<typeof inquiryDetailSchema>;

export const assigneesSchema = z.object({ people: z.array(personSchema) });

// ---- Replying ----

/**
 * A mailto: link that opens the firm's own mail client with the subject
 * filled in. The address is encoded as RFC 6068 asks, keeping its "@".
 */
export function replyLink(inquiry: Pick<InquiryDetail, "email" | "inquiryType">): string {
  const to = encodeURIComponent(inquiry.email).replace(/%40/g, "@");
  const subject = encodeURIComponent(`Re: Your inquiry about ${inquiry.inquiryType}`);
  return `mailto:${to}?subject=${subject}`;
}

/**
 * This area's entries of the console's route map (console-routes.ts):
 * The inbox: its pages, counts and assignees, and one inquiry read, moved, assigned, noted or erased.
 */
export const INQUIRY_CONSOLE_ROUTES = {
  "inquiries.list": {
    method: "GET",
    path: INQUIRY_PATHS.list,
    query: inquiryListQuerySchema,
    status: 200,
    response: inquiryPageSchema,
  },
  "inquiries.counts": {
    method: "GET",
    path: INQUIRY_PATHS.counts,
    status: 200,
    response: inboxCountsSchema,
  },
  "inquiries.unnotified": {
    method: "GET",
    path: INQUIRY_PATHS.unnotified,
    status: 200,
    response: unnotifiedSchema,
  },
  "inquiries.assignees": {
    method: "GET",
    path: INQUIRY_PATHS.assignees,
    status: 200,
    response: assigneesSchema,
  },
  "inquiries.read": {
    method: "GET",
    path: ({ id }: RecordId) => inquiryPath(INQUIRY_PATHS.one, id),
    status: 200,
    response: inquiryDetailSchema,
  },
  "inquiries.setStatus": {
    method: "PUT",
    path: ({ id }: RecordId) => inquiryPath(INQUIRY_PATHS.status, id),
    body: statusChangeSchema,
    status: 200,
    response: inquiryDetailSchema,
  },
  "inquiries.assign": {
    method: "PUT",
    path: ({ id }: RecordId) => inquiryPath(INQUIRY_PATHS.assignee, id),
    body: assignmentSchema,
    status: 200,
    response: inquiryDetailSchema,
  },
  "inquiries.addNote": {
    method: "POST",
    path: ({ id }: RecordId) => inquiryPath(INQUIRY_PATHS.notes, id),
    body: noteSchema,
    status: 201,
    response: inquiryDetailSchema,
  },
  "inquiries.erase": {
    method: "DELETE",
    path: ({ id }: RecordId) => inquiryPath(INQUIRY_PATHS.one, id),
    body: confirmAddressSchema,
    status: 200,
    response: inquirerErasureSchema,
  },
} as const satisfies RouteSlice;
