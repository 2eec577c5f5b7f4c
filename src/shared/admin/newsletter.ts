/**
 * The console's newsletter area: an Insight issue's fields and
 * their rules, the states of its send, and every payload of its API. The
 * console's screens, their client and the server's routes all use these.
 */
import { z } from "zod";
import { checkField, FIELD_REASONS, type FieldRule } from "../field-rules.ts";
import { idParamsSchema, rowIdSchema, rowNumberSchema } from "../row-id.ts";
import { messageSchema, ruledText } from "../schemas.ts";
import { EMAIL_MAX_LENGTH, normalizeEmail, TOPICS_MAX } from "../subscription.ts";
import { oneOf, trimEndWhere, trimWhere } from "../trim.ts";
import { ADMIN_API } from "./auth.ts";
import { loadedVersionSchema } from "./record-version.ts";
import type { RecordId, RouteSlice } from "./route-entry.ts";
import { deliveryFiguresSchema } from "./sending-health.ts";
import { cleanTag, PERSON_LIMITS, tagSchema } from "./subscribers.ts";

const BASE = `${ADMIN_API}/newsletter`;

/** An issue's id, or the route's parameter for it. */
type Id = number | ":id";

/** The server registers these with ":id"; the console calls them with ids. */
export const NEWSLETTER_PATHS = {
  list: BASE,
  one: (id: Id) => `${BASE}/${id}`,
  /** The e-mail as it will arrive (HTML), served to the preview's frame. */
  emailPreview: (id: Id) => `${BASE}/${id}/preview/email`,
  /** The plain-text part of the e-mail. */
  textPreview: (id: Id) => `${BASE}/${id}/preview/text`,
  /** The archive page the issue will become, served to the preview's frame. */
  webPreview: (id: Id) => `${BASE}/${id}/preview/web`,
  testSend: (id: Id) => `${BASE}/${id}/test`,
  send: (id: Id) => `${BASE}/${id}/send`,
  unschedule: (id: Id) => `${BASE}/${id}/unschedule`,
  pause: (id: Id) => `${BASE}/${id}/pause`,
  resume: (id: Id) => `${BASE}/${id}/resume`,
  cancel: (id: Id) => `${BASE}/${id}/cancel`,
  /** What the issue brought: its copies' fate, its links' clicks, the visits and leads. */
  figures: (id: Id) => `${BASE}/${id}/figures`,
  /** Subscribers with a name, to preview an issue's merge fields as one of them reads it. */
  previewReaders: `${BASE}/preview-readers`,
  /** How many active subscribers a segment (or everyone) counts now. */
  recipients: `${BASE}/recipients`,
} as const;

export const issueIdSchema = idParamsSchema;

/**
 * Where an issue is in its life:
 * - draft: being written; editable.
 * - scheduled: waits for `scheduledAt`; unschedule to edit it again.
 * - queuing: one message per active subscriber is being put in the outbox.
 * - sending: every message is queued; the outbox delivers them at the rate.
 * - paused: nothing more is sent until it is resumed.
 * - sent: every message was delivered or given up.
 * - cancelled: the messages not yet sent were withdrawn.
 */
export const ISSUE_STATUSES = [
  "draft",
  "scheduled",
  "queuing",
  "sending",
  "paused",
  "sent",
  "cancelled",
] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

export const ISSUE_STATUS_LABELS: Record<IssueStatus, string> = {
  draft: "Draft",
  scheduled: "Scheduled",
  queuing: "Queuing",
  sending: "Sending",
  paused: "Paused",
  sent: "Sent",
  cancelled: "Cancelled",
};

/** States in which the issue's text may still change. */
export const EDITABLE_STATUSES: readonly IssueStatus[] = ["draft"];
/** States in which a send is under way and can be paused or cancelled. */
export const RUNNING_STATUSES: readonly IssueStatus[] = ["queuing", "sending"];

export const ISSUE_LIMITS = {
  title: 150,
  slug: 80,
  summary: 300,
  body: 100_000,
} as const;

/** Lower-case words joined by single hyphens: the issue's address is /insight/<slug>. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const hyphen = oneOf("-");

/** A slug made from a title, for the form to suggest. */
export function slugify(title: string): string {
  const words = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-");
  return trimEndWhere(trimWhere(words, hyphen).slice(0, ISSUE_LIMITS.slug), hyphen);
}

/**
 * The title is one line (it becomes every copy's Subject); the summary and
 * the Markdown body may run over several.
 */
const text = (label: string, max: number, kind: "text" | "multiline") =>
  ruledText(kind)
    .trim()
    .min(1, `Write the ${label}.`)
    .max(max, `Keep the ${label} to ${max.toLocaleString("en")} characters or fewer.`);

/** What the editor writes: the fields of the form. */
export const issueDraftSchema = z.object({
  title: text("title", ISSUE_LIMITS.title, "text"),
  slug: z
    .string()
    .trim()
    .min(1, "Write the address, e.g. cloud-costs-in-2026.")
    .max(ISSUE_LIMITS.slug, `Keep the address to ${ISSUE_LIMITS.slug} characters or fewer.`)
    .regex(SLUG_PATTERN, "Use lower-case letters, digits and single hyphens only."),
  summary: text("summary", ISSUE_LIMITS.summary, "multiline"),
  body: text("body", ISSUE_LIMITS.body, "multiline"),
});
export type IssueDraft = z.infer<typeof issueDraftSchema>;

/** A save names the version it was edited from; a stale one is refused with 409. */
export const issueUpdateSchema = issueDraftSchema.extend({
  version: loadedVersionSchema,
});
export type IssueUpdate = z.infer<typeof issueUpdateSchema>;

/**
 * Whether a subscriber needs one of the segment's tags (any) or every one
 * of them (all).
 */
export const SEGMENT_MATCHES = ["any", "all"] as const;
export type SegmentMatch = (typeof SEGMENT_MATCHES)[number];

/** A segment names at least one tag or topic: said beside the tags, by the form and the server alike. */
export const NO_TAG_CHOSEN = "Choose at least one tag or topic.";

const segmentTags = z
  .array(tagSchema)
  .max(PERSON_LIMITS.tags, `Choose at most ${PERSON_LIMITS.tags} tags.`)
  // Spelt as a subscriber's tags are kept, and matched exactly: "Clients" is not "clients".
  .transform((tags) => [...new Set(tags.map(cleanTag))]);

const segmentTopics = z
  .array(rowNumberSchema)
  .max(TOPICS_MAX, `Choose at most ${TOPICS_MAX} topics.`)
  .transform((ids) => [...new Set(ids)]);

/**
 * Part of the active subscribers: those with one (any) or each (all) of the
 * tags the firm gave them and the topics they chose on the subscribe page.
 */
export const segmentSchema = z
  .object({
    match: z.enum(SEGMENT_MATCHES),
    tags: segmentTags.default([]),
    topics: segmentTopics.default([]),
  })
  .refine((segment) => segment.tags.length + segment.topics.length > 0, {
    message: NO_TAG_CHOSEN,
    path: ["tags"],
  });
export type Segment = z.output<typeof segmentSchema>;

/**
 * What a segment's people have, for a sentence: "tagged “a” or who chose
 * “Insurance”" (any), "tagged “a” and “b”" (all). A topic removed since is
 * named by its number.
 */
export function segmentWords(
  { match, tags, topics }: Segment,
  topicNames: ReadonlyMap<number, string> = new Map(),
): string {
  const type = match === "all" ? "conjunction" : "disjunction";
  const listed = (items: string[]) =>
    new Intl.ListFormat("en-GB", { type }).format(items.map((item) => `“${item}”`));
  const parts: string[] = [];
  if (tags.length > 0) parts.push(`tagged ${listed(tags)}`);
  if (topics.length > 0) {
    parts.push(`who chose ${listed(topics.map((id) => topicNames.get(id) ?? `topic ${id}`))}`);
  }
  return parts.join(match === "all" ? " and " : " or ");
}

/** Who an issue goes to, for a sentence: everyone active, or a segment's people. */
export function segmentLabel(
  segment: Segment | null,
  topicNames?: ReadonlyMap<number, string>,
): string {
  return segment
    ? `active subscribers ${segmentWords(segment, topicNames)}`
    : "every active subscriber";
}

/** One value or several, as a query string carries a repeated parameter. */
const repeated = <T extends z.ZodType>(each: T) =>
  z
    .union([each, z.array(each)])
    .optional()
    .transform((value): z.output<T>[] =>
      value === undefined ? [] : Array.isArray(value) ? value : [value as z.output<T>],
    );

/**
 * A segment as a query string carries it (the recipients' count): `tag`
 * once for each tag, `topic` once for each topic's id; neither is everyone.
 */
export const recipientsQuerySchema = z
  .object({
    match: z.enum(SEGMENT_MATCHES).default("any"),
    tag: repeated(tagSchema),
    topic: repeated(rowIdSchema),
  })
  .transform(({ match, tag, topic }, context) => {
    if (tag.length === 0 && topic.length === 0) return null;
    const parsed = segmentSchema.safeParse({ match, tags: tag, topics: topic });
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === "topics" ? "topic" : "tag";
      context.addIssue({ code: "custom", message: issue.message, path: [field] });
    }
    return z.NEVER;
  });

/** The previews read as one subscriber (`as`, their id) would; without it, with the fallbacks. */
export const previewQuerySchema = z.object({ as: rowIdSchema.optional() });

/** A subscriber an editor may preview an issue as: their values of the merge fields. */
export const previewReaderSchema = z.object({
  id: z.number(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
});
export type PreviewReader = z.infer<typeof previewReaderSchema>;
/** The newest active subscribers with a name, at most this many. */
export const PREVIEW_READERS = 10;
export const previewReaderListSchema = z.object({ items: previewReaderSchema.array() });

export const recipientCountSchema = z.object({ count: z.number() });
export type RecipientCount = z.infer<typeof recipientCountSchema>;

/**
 * "Send now" (no `at`) or "schedule for" `at`, an ISO-8601 time in the
 * future; to everyone active (no `segment`) or to a segment of them.
 */
export const issueSendSchema = z.object({
  at: z.iso.datetime({ offset: true }).optional(),
  segment: segmentSchema.optional(),
});
export type IssueSend = z.infer<typeof issueSendSchema>;

/**
 * A test goes to the few people who read a draft before it goes out: enough
 * for the editor and a colleague or two, too few to make it a mailing.
 */
export const TEST_RECIPIENTS_MAX = 5;
/** The same limit in a word, for the sentences that say it. */
const TEST_RECIPIENTS_MAX_IN_WORDS = "five";

const isoDate = z.string();

/** How far a send has gone. `recipients` counts the messages queued so far. */
export const issueProgressSchema = z.object({
  status: z.enum(ISSUE_STATUSES),
  recipients: z.number(),
  /** Queued and not yet delivered (due, waiting for the rate, or held while paused). */
  queued: z.number(),
  sent: z.number(),
  /** Given up after the outbox's last attempt. */
  failed: z.number(),
  /** Withdrawn: cancelled, or the address unsubscribed before its turn. */
  withdrawn: z.number(),
  /** True once every active subscriber has a message queued. */
  queuedAll: z.boolean(),
  /** Messages per second this send keeps to. */
  rate: z.number().nullable(),
  /** Why the send guard paused the send (bounces or complaints); null when a person paused it, or it runs. */
  pausedReason: z.string().nullable(),
  scheduledAt: isoDate.nullable(),
  startedAt: isoDate.nullable(),
  finishedAt: isoDate.nullable(),
});
export type IssueProgress = z.infer<typeof issueProgressSchema>;

export const issueRowSchema = z.object({
  id: z.number(),
  title: z.string(),
  slug: z.string(),
  status: z.enum(ISSUE_STATUSES),
  scheduledAt: isoDate.nullable(),
  startedAt: isoDate.nullable(),
  finishedAt: isoDate.nullable(),
  recipients: z.number(),
  updatedAt: isoDate,
  author: z.string(),
});
export type IssueRow = z.infer<typeof issueRowSchema>;

export const issueListSchema = z.object({ items: issueRowSchema.array() });
export type IssueList = z.infer<typeof issueListSchema>;

export const issueDetailSchema = issueRowSchema.extend({
  summary: z.string(),
  body: z.string(),
  version: z.number(),
  progress: issueProgressSchema,
  /** When a sent issue was withdrawn from the archive; null while the archive shows it. */
  withdrawnAt: isoDate.nullable(),
  /** When its archive page was last corrected after the send; null if never. */
  correctedAt: isoDate.nullable(),
  /** Who it goes or went to, once its send was asked for: null for every active subscriber. */
  segment: z
    .object({
      match: z.enum(SEGMENT_MATCHES),
      tags: z.string().array(),
      topics: z.number().array(),
    })
    .nullable(),
});
export type IssueDetail = z.infer<typeof issueDetailSchema>;

/**
 * What an issue brought, counted without telling one reader from another
 * (ADR 083): what came back about its copies (as Sending health counts it),
 * the unsubscribes put down to it, each link's clicks, and the visits its
 * links brought to the site with the inquiries and subscriptions they made.
 */
export const issueFiguresSchema = z.object({
  delivery: deliveryFiguresSchema,
  /** Subscriptions ended by the e-mails' link or one-click while this was the newest issue they had. */
  unsubscribed: z.number(),
  /** False when the copies' links were sent as written (INSIGHT_CLICK_COUNTS off): no click is known. */
  clicksCounted: z.boolean(),
  /** Each counted link in the e-mail's order, with its clicks. */
  links: z.array(z.object({ position: z.number(), url: z.string(), clicks: z.number() })),
  /** Visits that arrived by the issue's tagged links to the site, and what they led to. */
  visits: z.number(),
  inquiries: z.number(),
  subscriptions: z.number(),
});
export type IssueFigures = z.infer<typeof issueFiguresSchema>;

export const NEWSLETTER_TEXTS = {
  notFound: "This issue does not exist. It may have been deleted.",
  readerNotFound: "This subscriber does not exist. They may have been erased.",
  slugTaken: "Another issue already has this address. Choose another.",
  stale:
    "Someone saved this issue after you opened it. Your text is kept here; copy what you need, then reload to see their version.",
  notEditable: "This issue is being sent or was sent, so its text can no longer change.",
  notDraft: "Only a draft can be sent or scheduled.",
  notScheduled: "This issue is not scheduled.",
  notRunning: "This issue is not being sent, so there is nothing to pause or cancel.",
  notPaused: "This issue is not paused.",
  inThePast: "Choose a time in the future, or send it now.",
  testSent: (addresses: readonly string[]) =>
    addresses.length === 1
      ? `A test was queued to ${addresses[0]}. It arrives within a minute.`
      : `A test was queued to ${listed(addresses)}. Each arrives within a minute.`,
  testAddressesHint: `Up to ${TEST_RECIPIENTS_MAX_IN_WORDS} addresses, separated by commas.`,
  testNoAddress: "Write the address to send the test to.",
  testTooManyAddresses: `A test goes to ${TEST_RECIPIENTS_MAX_IN_WORDS} addresses at most: leave some out.`,
  testAddressEmpty: "One of the addresses is empty: write it, or leave it out.",
  testAddressNotText: "Write each address as text.",
  testAddressesNotList: "Send the addresses as a list.",
} as const;

/** "a, b and c", as the sentence around it reads in British English. */
function listed(items: readonly string[]): string {
  return new Intl.ListFormat("en-GB", { type: "conjunction" }).format(items);
}

/** Each address a test goes to follows the rule of every e-mail field the site accepts. */
const TEST_ADDRESS_RULE = {
  label: "Send a test to",
  required: true,
  maxLength: EMAIL_MAX_LENGTH,
  kind: "email",
} as const satisfies FieldRule;

/**
 * The addresses as typed in the console's one field. An address holds no
 * comma, semicolon or space (the e-mail rule refuses them), so any of them
 * may separate two, as mail programs write a list of recipients.
 */
export function splitAddresses(typed: string): string[] {
  return typed.split(/[\s,;]+/).filter((address) => address !== "");
}

/**
 * Why one address is refused, as a sentence. It names an address that is
 * merely not one, for the editor to find among the others; an address too
 * long or holding characters no field may hold is not repeated back, as the
 * console would show those characters as they are.
 */
function addressRefusal(address: string, reason: string): string {
  if (reason === FIELD_REASONS.required) return NEWSLETTER_TEXTS.testAddressEmpty;
  if (reason === FIELD_REASONS.email) return `${address} ${reason}.`;
  return `One of the addresses ${reason}.`;
}

const testAddress = z
  .string({ error: NEWSLETTER_TEXTS.testAddressNotText })
  .trim()
  .superRefine((address, context) => {
    const reason = checkField(TEST_ADDRESS_RULE, address);
    if (reason) context.addIssue({ code: "custom", message: addressRefusal(address, reason) });
  });

/** The first spelling of each address; a second one differing only in case is the same mailbox. */
function withoutRepeats(addresses: readonly string[]): string[] {
  const seen = new Set<string>();
  return addresses.filter((address) => {
    const key = normalizeEmail(address);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * "Send a test": the addresses to send one copy each to. Repeats are dropped
 * before counting, so the limit is on the people the test reaches.
 */
export const testSendSchema = z.object({
  to: z
    .array(testAddress, {
      error: (issue) =>
        issue.input === undefined
          ? NEWSLETTER_TEXTS.testNoAddress
          : NEWSLETTER_TEXTS.testAddressesNotList,
    })
    .transform(withoutRepeats)
    .refine((addresses) => addresses.length > 0, NEWSLETTER_TEXTS.testNoAddress)
    .refine(
      (addresses) => addresses.length <= TEST_RECIPIENTS_MAX,
      NEWSLETTER_TEXTS.testTooManyAddresses,
    ),
});
export type TestSend = z.input<typeof testSendSchema>;

/**
 * This area's entries of the console's route map (console-routes.ts):
 * Insight issues: written, read, tried on one address, their sends started (to everyone or a segment, counted first), paused, resumed or stopped, and what each brought.
 */
export const NEWSLETTER_CONSOLE_ROUTES = {
  "newsletter.list": {
    method: "GET",
    path: NEWSLETTER_PATHS.list,
    status: 200,
    response: issueListSchema,
  },
  "newsletter.create": {
    method: "POST",
    path: NEWSLETTER_PATHS.list,
    body: issueDraftSchema,
    status: 201,
    response: issueDetailSchema,
  },
  "newsletter.read": {
    method: "GET",
    path: ({ id }: RecordId) => NEWSLETTER_PATHS.one(id),
    status: 200,
    response: issueDetailSchema,
  },
  "newsletter.save": {
    method: "PUT",
    path: ({ id }: RecordId) => NEWSLETTER_PATHS.one(id),
    body: issueUpdateSchema,
    status: 200,
    response: issueDetailSchema,
  },
  "newsletter.delete": {
    method: "DELETE",
    path: ({ id }: RecordId) => NEWSLETTER_PATHS.one(id),
    status: 204,
  },
  "newsletter.testSend": {
    method: "POST",
    path: ({ id }: RecordId) => NEWSLETTER_PATHS.testSend(id),
    body: testSendSchema,
    status: 200,
    response: messageSchema,
  },
  "newsletter.send": {
    method: "POST",
    path: ({ id }: RecordId) => NEWSLETTER_PATHS.send(id),
    body: issueSendSchema,
    status: 200,
    response: issueDetailSchema,
  },
  "newsletter.unschedule": {
    method: "POST",
    path: ({ id }: RecordId) => NEWSLETTER_PATHS.unschedule(id),
    status: 200,
    response: issueDetailSchema,
  },
  "newsletter.pause": {
    method: "POST",
    path: ({ id }: RecordId) => NEWSLETTER_PATHS.pause(id),
    status: 200,
    response: issueDetailSchema,
  },
  "newsletter.resume": {
    method: "POST",
    path: ({ id }: RecordId) => NEWSLETTER_PATHS.resume(id),
    status: 200,
    response: issueDetailSchema,
  },
  "newsletter.cancel": {
    method: "POST",
    path: ({ id }: RecordId) => NEWSLETTER_PATHS.cancel(id),
    status: 200,
    response: issueDetailSchema,
  },
  "newsletter.previewReaders": {
    method: "GET",
    path: NEWSLETTER_PATHS.previewReaders,
    status: 200,
    response: previewReaderListSchema,
  },
  "newsletter.recipients": {
    method: "GET",
    path: NEWSLETTER_PATHS.recipients,
    query: recipientsQuerySchema,
    status: 200,
    response: recipientCountSchema,
  },
  "newsletter.figures": {
    method: "GET",
    path: ({ id }: RecordId) => NEWSLETTER_PATHS.figures(id),
    status: 200,
    response: issueFiguresSchema,
  },
} as const satisfies RouteSlice;
