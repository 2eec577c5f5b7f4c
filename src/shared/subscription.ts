/** The newsletter subscription. */
import type { FieldRule } from "./field-rules.ts";

export const EMAIL_MAX_LENGTH = 254;

/** The subscribe form's one field, `emailId`: the form and the server check it with this. */
export const SUBSCRIBE_EMAIL_FIELD = "emailId";

export const SUBSCRIBE_EMAIL_RULE = {
  label: "Email address",
  required: true,
  maxLength: EMAIL_MAX_LENGTH,
  kind: "email",
} as const satisfies FieldRule;

/** Addresses are compared without surrounding spaces and without regard to case. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}
