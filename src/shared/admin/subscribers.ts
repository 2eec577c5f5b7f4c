/**
 * The console's subscribers area: its paths, payloads and texts, used by the
 * screens, their client and the server's routes alike.
 */
import { z } from "zod";
import { idParamsSchema } from "../row-id.ts";
import { ruledText } from "../schemas.ts";
import { EMAIL_MAX_LENGTH, TOPIC_NAME_MAX, TOPICS_MAX } from "../subscription.ts";
import { ADMIN_API } from "./auth.ts";
import { confirmAddressSchema } from "./erasure.ts";
import { leadSourceDetailSchema } from "./lead-source.ts";
import { listPageSchema, pageNumberSchema } from "./list-page.ts";
import type { RecordId, RouteSlice } from "./route-entry.ts";

const BASE = `${ADMIN_API}/subscribers`;

/** The server's routes; `:id` is a subscription's id. */
export const SUBSCRIBER_ROUTES = {
  list: BASE,
  stats: `${BASE}/stats`,
  tags: `${BASE}/tags`,
  topics: `${BASE}/topics`,
  topic: `${BASE}/topics/:id`,
  export: `${BASE}/export.csv`,
  one: `${BASE}/:id`,
  unsubscribe: `${BASE}/:id/unsubscribe`,
  person: `${BASE}/:id/person`,
} as const;

/** One subscriber's path, for the client: `subscriberPath(7, "unsubscribe")`. */
export function subscriberPath(id: number, action?: "unsubscribe" | "person"): string {
  return `${BASE}/${id}${action ? `/${action}` : ""}`;
}

export const PAGE_SIZE = 50;
/** The growth chart's span: this month and the eleven before it. */
export const GROWTH_MONTHS = 12;

/**
 * How a consent changed: the `via` of a subscription event. The first three
 * name the visitor's way in or out; "unsubscribe page" is the page an
 * e-mail's link opens (its name predates the console, and the history keeps it).
 */
export const CONSENT_VIA = {
  website: "website",
  form: "form",
  link: "unsubscribe page",
  oneClick: "one-click",
  console: "console",
  /** Double opt-in (NEWSLETTER_DOUBLE_OPT_IN): the address was confirmed through its e-mail's link. */
  confirmation: "confirmation link",
  /** Double opt-in: a returning address left its confirmation too long, and is unsubscribed again. */
  lapsed: "confirmation expired",
  /** Brought along from another list by an owner, with a consent statement (ADR 054). */
  import: "import",
} as const;
export type ConsentVia = (typeof CONSENT_VIA)[keyof typeof CONSENT_VIA];

const VIA_LABELS: Record<string, string> = {
  [CONSENT_VIA.website]: "Website form",
  [CONSENT_VIA.form]: "Website form, sent without JavaScript",
  [CONSENT_VIA.link]: "Unsubscribe link in an e-mail",
  [CONSENT_VIA.oneClick]: "One-click unsubscribe in the mail program",
  [CONSENT_VIA.console]: "Console, on the person's request",
  [CONSENT_VIA.confirmation]: "Confirmed through the link in the confirmation e-mail",
  [CONSENT_VIA.lapsed]: "Did not confirm in time",
  [CONSENT_VIA.import]: "Imported from another list",
};

/** What a person reads for a `via`; an unknown one (an older import) as it was stored. */
export function viaLabel(via: string | null): string {
  if (!via) return "";
  return VIA_LABELS[via] ?? via;
}

/**
 * Active: confirmed, subscribed, and not suppressed: the addresses an issue
 * goes to. Awaiting: not confirmed yet (double opt-in). Suppressed:
 * confirmed, but the address bounced or complained, and gets nothing.
 */
export const SUBSCRIBER_STATUSES = ["active", "awaiting", "suppressed", "unsubscribed"] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];
export const STATUS_FILTERS = ["all", ...SUBSCRIBER_STATUSES] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export const STATUS_LABELS: Record<StatusFilter, string> = {
  all: "All",
  active: "Active",
  awaiting: "Awaiting confirmation",
  suppressed: "Suppressed",
  unsubscribed: "Unsubscribed",
};

/** The list's filter, as the URL's query carries it (list and export alike). */
export const subscriberFilterSchema = z.object({
  q: ruledText("text")
    .trim()
    .max(EMAIL_MAX_LENGTH, "Search for at most 254 characters.")
    .default(""),
  status: z.enum(STATUS_FILTERS).catch("all"),
});
export type SubscriberFilter = z.infer<typeof subscriberFilterSchema>;

export const subscriberListQuerySchema = subscriberFilterSchema.extend({
  page: pageNumberSchema,
});
export type SubscriberListQuery = z.infer<typeof subscriberListQuerySchema>;

export const subscriberIdSchema = idParamsSchema;

const isoDate = z.string();

/**
 * What a subscriber's name, tags and fields may hold: a former list's
 * longer values are cut to these, and its further tags and fields are not
 * imported (the import's preview says which columns become what).
 */
export const PERSON_LIMITS = {
  name: 100,
  tag: 50,
  tags: 20,
  fieldName: 60,
  fieldValue: 500,
  fields: 50,
} as const;

/** A tag as kept: trimmed, its inner spaces single, at most PERSON_LIMITS.tag characters. */
export function cleanTag(tag: string): string {
  return tag.trim().split(/\s+/).join(" ").slice(0, PERSON_LIMITS.tag).trim();
}

/** Tags without blanks or repeats (letter case aside: the first spelling is kept), at most PERSON_LIMITS.tags. */
export function cleanTags(tags: readonly string[]): string[] {
  const kept = new Map<string, string>();
  for (const tag of tags) {
    const clean = cleanTag(tag);
    const key = clean.toLowerCase();
    if (clean && !kept.has(key)) kept.set(key, clean);
  }
  return [...kept.values()].slice(0, PERSON_LIMITS.tags);
}

/** A person's name as one line: first and last, whichever are known; null when neither is. */
export function fullName(first: string | null, last: string | null): string | null {
  const name = [first, last].filter(Boolean).join(" ");
  return name === "" ? null : name;
}

const nameText = ruledText("text")
  .trim()
  .max(PERSON_LIMITS.name, `Keep it to ${PERSON_LIMITS.name} characters or fewer.`);

/** One tag as the console sends it: a subscriber's, or one a segment names. */
export const tagSchema = ruledText("text")
  .trim()
  .min(1, "A tag needs at least one character.")
  .max(PERSON_LIMITS.tag, `Keep each tag to ${PERSON_LIMITS.tag} characters or fewer.`);

/** A field a former list kept, or the firm wrote: a name and its text. */
const personFieldSchema = z.object({
  name: ruledText("text")
    .trim()
    .min(1, "Name the field, or remove it.")
    .max(
      PERSON_LIMITS.fieldName,
      `Keep a field's name to ${PERSON_LIMITS.fieldName} characters or fewer.`,
    ),
  value: ruledText("text")
    .trim()
    .max(
      PERSON_LIMITS.fieldValue,
      `Keep a field's text to ${PERSON_LIMITS.fieldValue} characters or fewer.`,
    ),
});

const personTagsSchema = z
  .array(tagSchema)
  .max(PERSON_LIMITS.tags, `Give at most ${PERSON_LIMITS.tags} tags.`)
  .transform(cleanTags);

const personFieldsSchema = z
  .array(personFieldSchema)
  .max(PERSON_LIMITS.fields, `Keep at most ${PERSON_LIMITS.fields} fields.`)
  .superRefine((fields, context) => {
    const seen = new Set<string>();
    fields.forEach(({ name }, index) => {
      const key = name.toLowerCase();
      if (seen.has(key)) {
        context.addIssue({
          code: "custom",
          path: [index, "name"],
          message: "Another field has this name: give each its own.",
        });
      }
      seen.add(key);
    });
  });

/**
 * The console's edit of a subscriber as a person: their name, tags and
 * fields (all of them: a field left out is erased).
 */
export const subscriberPersonSchema = z.object({
  firstName: nameText,
  lastName: nameText,
  tags: personTagsSchema,
  fields: personFieldsSchema,
});
export type SubscriberPerson = z.input<typeof subscriberPersonSchema>;

/**
 * Tags typed one a line: a tag may hold a comma (Mailchimp's quoted
 * "Big, Corp"), so only a line's end parts two.
 */
export const tagsFromText = (text: string) =>
  text
    .split(/\r\n|\r|\n/)
    .map((tag) => tag.trim())
    .filter(Boolean);

/** The console's form of a person: the tags typed one a line (tagsFromText), checked as the server checks them. */
export const personFormSchema = subscriberPersonSchema.extend({
  tags: ruledText("multiline").transform(tagsFromText).pipe(personTagsSchema),
});
export type PersonForm = z.input<typeof personFormSchema>;
export type PersonFormValues = z.output<typeof personFormSchema>;

export const subscriberRowSchema = z.object({
  id: z.number(),
  email: z.string(),
  /** First and last name as one line; null when neither is known. */
  name: z.string().nullable(),
  status: z.enum(SUBSCRIBER_STATUSES),
  /** When the person subscribed: for an imported address, the opt-in date its former list recorded. */
  subscribedAt: isoDate,
  /** When an import added the address, for one whose subscription stands on it; else null. */
  importedAt: isoDate.nullable(),
  subscribedVia: z.string(),
  unsubscribedAt: isoDate.nullable(),
  /** On the suppression list: the address bounced or complained, and gets no Insight. */
  suppressed: z.boolean(),
});
export type SubscriberRow = z.infer<typeof subscriberRowSchema>;

export const subscriberListSchema = listPageSchema(subscriberRowSchema);
export type SubscriberList = z.infer<typeof subscriberListSchema>;

export const monthGrowthSchema = z.object({
  /** "2025-03": a calendar month in UTC. */
  month: z.string(),
  /** Subscribed here: on the site, by their link, or added in the console. */
  subscribed: z.number(),
  /** Brought by an import: not new to the firm, so apart from `subscribed`. */
  imported: z.number(),
  unsubscribed: z.number(),
});
export type MonthGrowth = z.infer<typeof monthGrowthSchema>;

export const subscriberStatsSchema = z.object({
  /** Subscribed, confirmed and not suppressed: the addresses an issue goes to. */
  active: z.number(),
  /** Subscribed, waiting for their confirmation link (NEWSLETTER_DOUBLE_OPT_IN). */
  awaitingConfirmation: z.number(),
  /** Subscribed and confirmed, but on the suppression list: they get nothing. */
  suppressed: z.number(),
  unsubscribed: z.number(),
  /** Oldest first, GROWTH_MONTHS of them, months without events included. */
  months: monthGrowthSchema.array(),
});
export type SubscriberStats = z.infer<typeof subscriberStatsSchema>;

export const consentEventSchema = z.object({
  at: isoDate,
  event: z.enum(["subscribed", "unsubscribed"]),
  via: z.string(),
  /** An import's line: where the person gave consent, as the importer stated it. */
  consentSource: z.string().nullable(),
  /** An import's line: when the consent was given (a day, or the exported list's moment). */
  consentDate: z.string().nullable(),
});
export type ConsentEvent = z.infer<typeof consentEventSchema>;

export const subscriberDetailSchema = subscriberRowSchema.extend({
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  tags: z.string().array(),
  /** The topics the person chose when subscribing, in the topics' order. */
  topics: z.string().array(),
  /** What a former list kept of the person, by its column's name, in the file's order. */
  fields: z.object({ name: z.string(), value: z.string() }).array(),
  unsubscribedVia: z.string().nullable(),
  /** The import the address came in by, with its consent statement; null when it did not. */
  imported: z
    .object({
      importId: z.number(),
      importedAt: isoDate,
      file: z.string(),
      consentSource: z.string(),
      consentDate: z.string(),
      doubleOptIn: z.boolean(),
    })
    .nullable(),
  /** The visit that brought the subscription, or began it anew (lead-source.ts); null when unknown. */
  source: leadSourceDetailSchema,
  /** The consent history, oldest first. */
  events: consentEventSchema.array(),
});
export type SubscriberDetail = z.infer<typeof subscriberDetailSchema>;

/** A tag active subscribers have, and how many have it: what a segment is made of. */
export const tagCountSchema = z.object({ tag: z.string(), active: z.number() });
export type TagCount = z.infer<typeof tagCountSchema>;

/** The tags in use, most used first; at most TAGS_LISTED of them. */
export const TAGS_LISTED = 200;
export const tagListSchema = z.object({ items: tagCountSchema.array() });
export type TagList = z.infer<typeof tagListSchema>;

/** A topic the subscribe page offers, and how many active subscribers chose it. */
export const topicCountSchema = z.object({ id: z.number(), name: z.string(), active: z.number() });
export type TopicCount = z.infer<typeof topicCountSchema>;
export const topicListSchema = z.object({ items: topicCountSchema.array() });

export const TOPIC_TEXTS = {
  nameMissing: "Name the topic, e.g. Insurance.",
  nameLong: `Keep a topic's name to ${TOPIC_NAME_MAX} characters or fewer.`,
  taken: "The subscribe page offers this topic already.",
  full: `The subscribe page offers at most ${TOPICS_MAX} topics: remove one first.`,
  notFound: "This topic does not exist. It may have been removed.",
} as const;

/** A topic the firm adds to the subscribe page. */
export const newTopicSchema = z.object({
  name: ruledText("text", TOPIC_TEXTS.nameMissing)
    .trim()
    .min(1, TOPIC_TEXTS.nameMissing)
    .max(TOPIC_NAME_MAX, TOPIC_TEXTS.nameLong),
});
export type NewTopic = z.input<typeof newTopicSchema>;
export const topicSchema = z.object({ id: z.number(), name: z.string() });

/** One topic's path, for the client. */
export const topicPath = (id: number) => `${BASE}/topics/${id}`;

export const SUBSCRIBER_TEXTS = {
  notFound: "This subscriber does not exist. It may have been erased.",
  alreadyUnsubscribed: "This address had already unsubscribed.",
  unsubscribed: "Unsubscribed. The address gets no more newsletters.",
  erased: (email: string) =>
    `${email} was erased: its subscription, its consent history and every e-mail to it are gone.`,
} as const;

/**
 * This area's entries of the console's route map (console-routes.ts):
 * The subscribers' pages and figures, the tags and topics they have, the topics the subscribe page offers, and one subscriber read, named and tagged, unsubscribed or erased.
 */
export const SUBSCRIBER_CONSOLE_ROUTES = {
  "subscribers.list": {
    method: "GET",
    path: SUBSCRIBER_ROUTES.list,
    query: subscriberListQuerySchema,
    status: 200,
    response: subscriberListSchema,
  },
  "subscribers.stats": {
    method: "GET",
    path: SUBSCRIBER_ROUTES.stats,
    status: 200,
    response: subscriberStatsSchema,
  },
  "subscribers.tags": {
    method: "GET",
    path: SUBSCRIBER_ROUTES.tags,
    status: 200,
    response: tagListSchema,
  },
  "subscribers.topics": {
    method: "GET",
    path: SUBSCRIBER_ROUTES.topics,
    status: 200,
    response: topicListSchema,
  },
  "subscribers.addTopic": {
    method: "POST",
    path: SUBSCRIBER_ROUTES.topics,
    body: newTopicSchema,
    status: 201,
    response: topicSchema,
  },
  "subscribers.removeTopic": {
    method: "DELETE",
    path: ({ id }: RecordId) => topicPath(id),
    status: 204,
  },
  "subscribers.read": {
    method: "GET",
    path: ({ id }: RecordId) => subscriberPath(id),
    status: 200,
    response: subscriberDetailSchema,
  },
  "subscribers.savePerson": {
    method: "PUT",
    path: ({ id }: RecordId) => subscriberPath(id, "person"),
    body: subscriberPersonSchema,
    status: 200,
    response: subscriberDetailSchema,
  },
  "subscribers.unsubscribe": {
    method: "POST",
    path: ({ id }: RecordId) => subscriberPath(id, "unsubscribe"),
    status: 200,
    response: subscriberDetailSchema,
  },
  "subscribers.erase": {
    method: "DELETE",
    path: ({ id }: RecordId) => subscriberPath(id),
    body: confirmAddressSchema,
    status: 204,
  },
} as const satisfies RouteSlice;
