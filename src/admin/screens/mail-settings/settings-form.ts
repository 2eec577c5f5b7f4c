/**
 * The mail settings as the form holds them: each field's text, and for each
 * setting whether it is set here or left to the server's settings. A
 * setting left to the server shows the server's value, and becomes set
 * here as soon as it is edited.
 */
import { z } from "zod";
import {
  MAIL_SETTINGS_TEXTS,
  type MailSettingKey,
  type MailSettingsAnswer,
  type MailSettingsSave,
  mailSettingsSaveSchema,
} from "../../../shared/admin/mail-settings.ts";

export interface FormValues {
  senderName: string;
  senderAddress: string;
  /** One address a line. */
  inquiryTo: string;
  newsletterRate: string;
  doubleOptIn: boolean;
  welcomeText: string;
}

export type FieldName = keyof FormValues;

/** Which setting each field belongs to. */
export const SETTING_OF: Record<FieldName, MailSettingKey> = {
  senderName: "sender",
  senderAddress: "sender",
  inquiryTo: "inquiryTo",
  newsletterRate: "newsletterRate",
  doubleOptIn: "doubleOptIn",
  welcomeText: "welcomeText",
};

export type SetHere = Record<MailSettingKey, boolean>;

/** What the form holds: the fields, which settings are set here, and the version they were loaded at. */
export interface FormState extends FormValues {
  setHere: SetHere;
  version: number;
}

/** What the server gives each setting, in the form's terms (the built-in welcome is an empty text). */
export function defaultValues({ defaults }: MailSettingsAnswer): FormValues {
  return {
    senderName: defaults.senderName,
    senderAddress: defaults.senderAddress,
    inquiryTo: defaults.inquiryTo.join("\n"),
    newsletterRate: String(defaults.newsletterRate),
    doubleOptIn: defaults.doubleOptIn,
    welcomeText: "",
  };
}

export function setHereOf({ saved }: MailSettingsAnswer): SetHere {
  return {
    sender: saved.senderName !== null,
    inquiryTo: saved.inquiryTo !== null,
    newsletterRate: saved.newsletterRate !== null,
    doubleOptIn: saved.doubleOptIn !== null,
    welcomeText: saved.welcomeText !== null,
  };
}

/** The values in force: each saved one, else the server's. */
export function valuesOf(answer: MailSettingsAnswer): FormValues {
  const fallback = defaultValues(answer);
  const { saved } = answer;
  return {
    senderName: saved.senderName ?? fallback.senderName,
    senderAddress: saved.senderAddress ?? fallback.senderAddress,
    inquiryTo: saved.inquiryTo?.join("\n") ?? fallback.inquiryTo,
    newsletterRate:
      saved.newsletterRate === null ? fallback.newsletterRate : String(saved.newsletterRate),
    doubleOptIn: saved.doubleOptIn ?? fallback.doubleOptIn,
    welcomeText: saved.welcomeText ?? fallback.welcomeText,
  };
}

/** The server's value of a setting, in words. */
export function serverValueText(key: MailSettingKey, answer: MailSettingsAnswer): string {
  const { defaults } = answer;
  switch (key) {
    case "sender":
      return defaults.senderName
        ? `${defaults.senderName} <${defaults.senderAddress}>`
        : defaults.senderAddress;
    case "inquiryTo":
      return defaults.inquiryTo.join(", ");
    case "newsletterRate":
      return `${defaults.newsletterRate.toLocaleString("en-US")} copies a second`;
    case "doubleOptIn":
      return defaults.doubleOptIn ? "on" : "off";
    case "welcomeText":
      return "the built-in welcome";
  }
}

const addressesOf = (text: string) =>
  text
    .split(/[\n,;]/)
    .map((line) => line.trim())
    .filter(Boolean);

/** The form as the answer fills it. */
export function formStateOf(answer: MailSettingsAnswer): FormState {
  return { ...valuesOf(answer), setHere: setHereOf(answer), version: answer.version };
}

/**
 * The save's body, or the field refusals found before sending: a rate that
 * is no whole number would otherwise travel as nothing at all.
 */
export function saveBody(
  state: FormState,
): { body: MailSettingsSave } | { refused: Partial<Record<FieldName, string>> } {
  const { setHere } = state;
  const rate = state.newsletterRate.trim();
  if (setHere.newsletterRate && !/^\d{1,9}$/.test(rate)) {
    return { refused: { newsletterRate: MAIL_SETTINGS_TEXTS.rate } };
  }
  return {
    body: {
      version: state.version,
      senderName: setHere.sender ? state.senderName : null,
      senderAddress: setHere.sender ? state.senderAddress : null,
      inquiryTo: setHere.inquiryTo ? addressesOf(state.inquiryTo) : null,
      newsletterRate: setHere.newsletterRate ? Number(rate) : null,
      doubleOptIn: setHere.doubleOptIn ? state.doubleOptIn : null,
      welcomeText: setHere.welcomeText ? state.welcomeText : null,
    },
  };
}

/**
 * The form checked by the schema the server checks the save with: each
 * reason stands by the field of the setting it names.
 */
export const formStateSchema = z.custom<FormState>().superRefine((state, context) => {
  const made = saveBody(state);
  const issues =
    "refused" in made
      ? Object.entries(made.refused).map(([field, message]) => ({ path: [field], message }))
      : (mailSettingsSaveSchema.safeParse(made.body).error?.issues ?? []);
  for (const { path, message } of issues) {
    context.addIssue({ code: "custom", path: path.slice(0, 1), message });
  }
});
