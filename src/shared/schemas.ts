/**
 * Every payload the API accepts and answers, as Zod schemas: the server's
 * routes declare them (their types come from them), and the browser imports
 * only the inferred types, so Zod stays out of the public bundle. The request
 * rules are built from the field rules in inquiry.ts and subscription.ts, and
 * each value is checked by field-rules.ts's checkField, which the forms run
 * before sending: the form and the server cannot disagree, even in wording.
 */
import { z } from "zod";
import { CONTENT_CATEGORIES } from "./content-categories.ts";
import { characterReason, checkField, FIELD_REASONS, type FieldRule } from "./field-rules.ts";
import { INQUIRY_FIELDS } from "./inquiry.ts";
import { cleanLeadSource } from "./lead-source.ts";
import { SUBSCRIBE_EMAIL_RULE, TOPICS_MAX, topicIdsOf } from "./subscription.ts";

/** Topics no form of the site would send. */
const TOPICS_REFUSAL = "Choose the topics from the list on the page.";

/** A text field: trimmed, then checked by the shared rule (the reasons the form shows too). */
function checkedText(rule: FieldRule) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined ? FIELD_REASONS.required : FIELD_REASONS.notText,
    })
    .trim()
    .superRefine((value, context) => {
      const reason = checkField(rule, value);
      if (reason) context.addIssue({ code: "custom", message: reason });
    });
}

/**
 * A text of the console (or the seed it edits): a string holding only the
 * characters the shared rules allow a field of `kind`, in their words; the
 * schema built on it says emptiness and length in the console's own words.
 * `error` is said when the value is missing or not a string.
 */
export function ruledText(kind: "text" | "multiline", error?: string) {
  return z.string(error === undefined ? undefined : { error }).superRefine((value, context) => {
    const reason = characterReason(kind, value);
    if (reason) context.addIssue({ code: "custom", message: reason });
  });
}

function fieldSchema(rule: FieldRule) {
  const text = checkedText(rule);
  return rule.required ? text : text.default("");
}

// ---- Requests ----

/**
 * The optional source of a lead (lead-source.ts), sent beside a form's fields.
 * Its parts are not typed by the visitor, so a bad one never refuses the
 * post: each part that breaks its rule (LEAD_SOURCE_LIMITS, a wrong type) is
 * dropped and the rest is kept; anything but an object is no source.
 */
export const leadSourceSchema = z.unknown().transform((value) => cleanLeadSource(value));

/**
 * The inquiry's fields by their fixed rules. Its type is checked here only
 * as one line of text: the types on offer follow the firm's capabilities,
 * so the server checks it against the current list after this (the pages
 * feature's inquiry-types.ts), in the same words.
 */
export const inquirySchema = z.strictObject(
  {
    firstName: fieldSchema(INQUIRY_FIELDS.firstName),
    lastName: fieldSchema(INQUIRY_FIELDS.lastName),
    company: fieldSchema(INQUIRY_FIELDS.company),
    jobTitle: fieldSchema(INQUIRY_FIELDS.jobTitle),
    email: fieldSchema(INQUIRY_FIELDS.email),
    phoneNumber: fieldSchema(INQUIRY_FIELDS.phoneNumber),
    inquiryType: fieldSchema(INQUIRY_FIELDS.inquiryType),
    comments: fieldSchema(INQUIRY_FIELDS.comments),
    source: leadSourceSchema.optional(),
  },
  { error: "must be a JSON object" },
);

/** The inquiry as the server accepts it (optional fields default to ""). */
export type Inquiry = z.infer<typeof inquirySchema>;

/**
 * The subscribe call's query: the address, and the topics chosen, kept as
 * sent ("3,7"; topicIdsOf reads it) so a turned-away post keeps them as text.
 */
export const subscribeQuerySchema = z.object({
  emailId: checkedText(SUBSCRIBE_EMAIL_RULE),
  topics: z
    .string()
    .max(TOPICS_MAX * 10, TOPICS_REFUSAL)
    .refine((text) => {
      const ids = topicIdsOf(text);
      return ids !== null && ids.length <= TOPICS_MAX;
    }, TOPICS_REFUSAL)
    .optional(),
});

/**
 * The subscribe call's body: at first none (the address travels in the
 * query), and now optionally `{ source }`. Any other body is read as no
 * source rather than refused, so every caller written for the bodiless call still works.
 */
export const subscribeBodySchema = z.unknown().transform((body) => ({
  source: cleanLeadSource(
    typeof body === "object" && body !== null ? (body as { source?: unknown }).source : undefined,
  ),
}));

/**
 * The subscribe call's 201: its message, and whether the address is now to
 * be confirmed by the link e-mailed to it (double opt-in), which the visitor
 * is told instead of being told the subscription is done.
 */
export const subscribedSchema = z.object({
  message: z.string(),
  confirmationAsked: z.boolean(),
});

export const itemsQuerySchema = z.object({
  category: z.enum(CONTENT_CATEGORIES, {
    error: `must be one of: ${CONTENT_CATEGORIES.join(", ")}`,
  }),
});

/**
 * An unsubscribe link's token: `<subscription id>.<signature>`
 * (`src/server/features/subscriptions/unsubscribe-token.ts`); the id is its first group.
 */
export const UNSUBSCRIBE_TOKEN_PATTERN = /^(\d{1,15})\.[A-Za-z0-9_-]{43}$/;

export const unsubscribeTokenSchema = z.object({
  token: z
    .string({ error: "is required" })
    .regex(UNSUBSCRIBE_TOKEN_PATTERN, "is not a valid unsubscribe token"),
});

/**
 * A confirmation link's token (NEWSLETTER_DOUBLE_OPT_IN): `<subscription id>.<asked
 * at, base36 ms>.<signature>` (`src/server/features/subscriptions/confirm-token.ts`).
 */
export const CONFIRM_TOKEN_PATTERN = /^\d{1,15}\.[0-9a-z]{1,11}\.[A-Za-z0-9_-]{43}$/;

export const confirmTokenSchema = z.object({
  token: z
    .string({ error: "is required" })
    .regex(CONFIRM_TOKEN_PATTERN, "is not a valid confirmation token"),
});

// ---- Answers ----

/** Every error, and the answers that carry only a sentence. */
export const messageSchema = z.object({ message: z.string() });
/** A refusal, which may also name the fields it concerns, to show next to them. */
export const fieldRefusalSchema = messageSchema.extend({
  fields: z.record(z.string(), z.string()).optional(),
});

export const xsrfAnswerSchema = z.object({ token: z.string() });

export const teamMemberSchema = z.object({
  fullname: z.string(),
  title: z.string(),
  imagePath: z.string(),
  bio: z.string(),
});

/** imagePath only for the categories with images (industries, techneeds). */
export const contentItemSchema = z.object({
  name: z.string(),
  description: z.string(),
  imagePath: z.string().optional(),
});

/** A case study of Who We Serve: its own page at /weserve/case-studies/<slug>. */
export const caseStudySchema = z.object({
  slug: z.string(),
  title: z.string(),
  summary: z.string(),
  opportunity: z.array(z.string()),
  solution: z.array(z.string()),
  work: z.array(z.string()),
});

export const inquiryReceivedSchema = z.object({ id: z.number().int() });

export const unsubscribeStateSchema = z.object({
  state: z.enum(["subscribed", "unsubscribed"]),
  /** Masked, enough for its owner to recognise it. */
  email: z.string(),
});

export const oneClickAnswerSchema = unsubscribeStateSchema.pick({ state: true });

/** Where a confirmation link stands: waiting for its button to be pressed, or confirmed. */
export const confirmationStateSchema = z.object({
  state: z.enum(["pending", "confirmed"]),
  /** Masked, enough for its owner to recognise it. */
  email: z.string(),
});

/**
 * What the confirmation page shows once its button was pressed: the server
 * (`src/server/features/pages/form-posts.ts`) hands it to the page's action as the form's fields.
 */
export type ConfirmationAnswer =
  | { state: "confirmed"; email: string }
  | { state: "invalid" | "expired" | "failed" };
