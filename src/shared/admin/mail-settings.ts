/**
 * The firm's mail settings in the console (owners only): the sender, where
 * inquiries go, the newsletter's sending rate, double opt-in and the
 * welcome's text. Each is either set here or left to the server's
 * environment (null); the console's form, its API client and the server's
 * routes use these definitions.
 */
import { z } from "zod";
import { checkField, FIELD_REASONS, type FieldRule } from "../field-rules.ts";
import { messageSchema } from "../schemas.ts";
import { EMAIL_MAX_LENGTH, normalizeEmail } from "../subscription.ts";
import { ADMIN_API } from "./auth.ts";
import { orderVersionSchema } from "./record-version.ts";
import type { RouteSlice } from "./route-entry.ts";

const MAIL_SETTINGS_API = `${ADMIN_API}/settings/mail`;

export const MAIL_SETTINGS_PATHS = {
  settings: MAIL_SETTINGS_API,
  testMail: `${MAIL_SETTINGS_API}/test`,
};

/** The console's name of the screen. */
export const MAIL_SETTINGS_LABEL = "Mail settings";

/** How many addresses inquiries may go to at once. */
export const INQUIRY_RECIPIENTS_MAX = 10;
/** The newsletter's rate, in copies a second: NEWSLETTER_RATE_PER_SECOND's own bounds. */
export const NEWSLETTER_RATE_MIN = 1;
export const NEWSLETTER_RATE_MAX = 10_000;
/** The sender's name, as mail programs show it beside the address. */
export const SENDER_NAME_MAX = 100;
/** The welcome's own text, in characters. */
export const WELCOME_TEXT_MAX = 5_000;

/** The settings, each by the name its field and its refusal use. */
export const MAIL_SETTING_KEYS = [
  "sender",
  "inquiryTo",
  "newsletterRate",
  "doubleOptIn",
  "welcomeText",
] as const;
export type MailSettingKey = (typeof MAIL_SETTING_KEYS)[number];

export const MAIL_SETTINGS_TEXTS = {
  stale:
    "Someone else saved the mail settings since you opened them. Reload to see their changes; your entries are still in the form.",
  senderHalf: "Give both the sender's name and address, or neither to use the server's setting.",
  noRecipient: "Give at least one address.",
  tooManyRecipients: `Give at most ${INQUIRY_RECIPIENTS_MAX} addresses.`,
  repeatedRecipient: (address: string) => `${address} is listed twice.`,
  rate: `Give a whole number of copies a second, from ${NEWSLETTER_RATE_MIN} to ${NEWSLETTER_RATE_MAX.toLocaleString("en-US")}.`,
  welcomeTooLong: `Keep the welcome to ${WELCOME_TEXT_MAX.toLocaleString("en-US")} characters.`,
  saved: "Saved. The next mail uses these settings.",
  testQueued: (address: string) =>
    `A test mail is on its way to ${address}, from the sender saved here.`,
  fromServer: "From the server's settings:",
  useServer: "Use the server's setting",
} as const;

const addressRule = (label: string) =>
  ({
    label,
    required: true,
    maxLength: EMAIL_MAX_LENGTH,
    kind: "email",
  }) as const satisfies FieldRule;

/** An address the firm sends from or receives at, in the words of every e-mail field. */
function address(label: string) {
  return z
    .string({ error: FIELD_REASONS.notText })
    .trim()
    .superRefine((value, context) => {
      const reason = checkField(addressRule(label), value);
      if (!reason) return;
      const said =
        reason === FIELD_REASONS.email ? `${value} ${reason}.` : `The address ${reason}.`;
      context.addIssue({ code: "custom", message: said });
    });
}

const senderName = z
  .string({ error: FIELD_REASONS.notText })
  .trim()
  .superRefine((value, context) => {
    const reason = checkField(
      { label: "Sender's name", required: true, maxLength: SENDER_NAME_MAX, kind: "text" },
      value,
    );
    if (reason) context.addIssue({ code: "custom", message: `The name ${reason}.` });
  });

/** Where inquiries go: one to ten addresses, none twice (in any case). */
const inquiryTo = z
  .array(address("Where inquiries go"), { error: MAIL_SETTINGS_TEXTS.noRecipient })
  .min(1, MAIL_SETTINGS_TEXTS.noRecipient)
  .max(INQUIRY_RECIPIENTS_MAX, MAIL_SETTINGS_TEXTS.tooManyRecipients)
  .superRefine((addresses, context) => {
    const seen = new Set<string>();
    for (const each of addresses) {
      const key = normalizeEmail(each);
      if (seen.has(key)) {
        context.addIssue({ code: "custom", message: MAIL_SETTINGS_TEXTS.repeatedRecipient(each) });
        return;
      }
      seen.add(key);
    }
  });

const newsletterRate = z
  .number({ error: MAIL_SETTINGS_TEXTS.rate })
  .int(MAIL_SETTINGS_TEXTS.rate)
  .min(NEWSLETTER_RATE_MIN, MAIL_SETTINGS_TEXTS.rate)
  .max(NEWSLETTER_RATE_MAX, MAIL_SETTINGS_TEXTS.rate);

/** Markdown of several lines; an empty one is the built-in welcome. */
const welcomeText = z
  .string({ error: FIELD_REASONS.notText })
  .trim()
  .superRefine((value, context) => {
    const reason = checkField(
      { label: "Welcome text", required: false, maxLength: WELCOME_TEXT_MAX, kind: "multiline" },
      value,
    );
    if (!reason) return;
    const tooLong = reason === FIELD_REASONS.tooLong(WELCOME_TEXT_MAX);
    context.addIssue({
      code: "custom",
      message: tooLong ? MAIL_SETTINGS_TEXTS.welcomeTooLong : `The text ${reason}.`,
    });
  })
  .transform((value) => (value === "" ? null : value));

/** Each setting as saved in the console; null where the server's environment decides. */
export const mailSettingsValuesSchema = z.object({
  senderName: z.string().nullable(),
  senderAddress: z.string().nullable(),
  inquiryTo: z.array(z.string()).nullable(),
  newsletterRate: z.number().int().nullable(),
  doubleOptIn: z.boolean().nullable(),
  welcomeText: z.string().nullable(),
});
export type MailSettingsValues = z.infer<typeof mailSettingsValuesSchema>;

/** What the environment gives each setting (the built-in welcome is an empty text). */
export const mailSettingsDefaultsSchema = z.object({
  senderName: z.string(),
  senderAddress: z.string(),
  inquiryTo: z.array(z.string()),
  newsletterRate: z.number().int(),
  doubleOptIn: z.boolean(),
});
export type MailSettingsDefaults = z.infer<typeof mailSettingsDefaultsSchema>;

export const mailSettingsAnswerSchema = z.object({
  /** 0 while nothing was ever saved here. */
  version: z.number().int(),
  updatedAt: z.string().nullable(),
  saved: mailSettingsValuesSchema,
  defaults: mailSettingsDefaultsSchema,
});
export type MailSettingsAnswer = z.infer<typeof mailSettingsAnswerSchema>;

/** A save: every setting (null gives it back to the server), and the version the owner loaded. */
export const mailSettingsSaveSchema = z
  .strictObject({
    version: orderVersionSchema,
    senderName: senderName.nullable(),
    senderAddress: address("Sender's address").nullable(),
    inquiryTo: inquiryTo.nullable(),
    newsletterRate: newsletterRate.nullable(),
    doubleOptIn: z.boolean({ error: "must be on or off" }).nullable(),
    welcomeText: welcomeText.nullable(),
  })
  .superRefine((body, context) => {
    if ((body.senderName === null) !== (body.senderAddress === null)) {
      context.addIssue({
        code: "custom",
        path: [body.senderName === null ? "senderName" : "senderAddress"],
        message: MAIL_SETTINGS_TEXTS.senderHalf,
      });
    }
  });
export type MailSettingsSave = z.input<typeof mailSettingsSaveSchema>;

/**
 * A test mail's request: nothing to choose, it goes to the person asking.
 * An empty object rather than no body, so a body of anything else is
 * refused instead of ignored while a mail is queued.
 */
export const testMailSchema = z.strictObject({});

/**
 * This area's entries of the console's route map (console-routes.ts):
 * The mail settings read and saved, and a test mail.
 */
export const MAIL_SETTINGS_CONSOLE_ROUTES = {
  "mailSettings.read": {
    method: "GET",
    path: MAIL_SETTINGS_PATHS.settings,
    status: 200,
    response: mailSettingsAnswerSchema,
  },
  "mailSettings.save": {
    method: "PUT",
    path: MAIL_SETTINGS_PATHS.settings,
    body: mailSettingsSaveSchema,
    status: 200,
    response: mailSettingsAnswerSchema,
  },
  "mailSettings.testMail": {
    method: "POST",
    path: MAIL_SETTINGS_PATHS.testMail,
    body: testMailSchema,
    status: 202,
    response: messageSchema,
  },
} as const satisfies RouteSlice;
