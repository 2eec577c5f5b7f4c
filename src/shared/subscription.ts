/** §3 and §5: the newsletter subscription. */
import type { FieldRule } from "./field-rules.ts";

export const EMAIL_MAX_LENGTH = 254;

/** The subscribe form's one field, `emailId` (§3, §7): the form and the server check it with this. */
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
