/**
 * The rule of each field the site accepts, and the one check of a value
 * against it, without a validation library: the forms run it in the browser
 * before sending, and the server's Zod schemas (schemas.ts) run the same
 * check, so a value is refused for the same reason, in the same words, on
 * both sides. A browser's own checks (required, type=email) stay as they are;
 * this catches what a browser accepts and the server would not (an address
 * without a dot in its domain, a name of spaces, a control character).
 */

/**
 * What a field may hold besides letters, marks, symbols, spaces and tabs:
 * - "text", "email", "choice": one line, and no text-direction control;
 * - "longtext": a visitor's comments, which may quote any text, so line
 *   breaks of every kind and text-direction controls too;
 * - "multiline": the firm's own text of several lines (a newsletter's body,
 *   a note, a biography), published as it is written: line feeds and carriage
 *   returns, but neither line nor paragraph separators (a line of the e-mail's
 *   text to some readers and not to others) nor text-direction controls.
 */
export type FieldKind = "text" | "email" | "choice" | "longtext" | "multiline";

export interface FieldRule {
  label: string;
  required: boolean;
  /** Counted after surrounding spaces are removed, as the server stores the value. */
  maxLength: number;
  kind: FieldKind;
  /**
   * The accepted values of a "choice". A choice whose values the content
   * decides (the inquiry types) has none in its fixed rule: only its text is
   * checked there, and its values where they are known (inquiryRules).
   */
  choices?: readonly string[];
}

/**
 * An e-mail address as the server accepts it: Zod 4's `z.email()` pattern,
 * kept here so the browser can apply it without Zod. Unlike a browser's
 * type=email, the domain needs a dot and a top-level name of two letters or
 * more: `jane@acme` and `a@b` are refused, `jane@acme.com` is accepted.
 */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/**
 * Control characters no field may hold: C0 but tab, line feed and carriage
 * return, then DEL and C1 (U+0085, a line break to some readers, among them).
 * PostgreSQL cannot store NUL at all, and none of them is typed by a person.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's job.
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** What starts a new line: a one-line field is written on one line of a mail's text or header. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/** The line breaks no keyboard's Enter types: text of several lines keeps to line feeds. */
const LINE_SEPARATOR = /[\u2028\u2029]/;

/**
 * Bidirectional embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069): they reorder the text around them, so a name could read as
 * another in a mail's subject or the console. The marks U+200E and U+200F
 * stay accepted: they only help a mixed-script name show right.
 */
const TEXT_DIRECTION_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;

/** Why a value is refused: shown next to its field, and in the API's 400 answer. */
export const FIELD_REASONS = {
  required: "is required",
  notText: "must be text",
  controlCharacter: "must not contain control characters",
  lineBreak: "must be on one line",
  lineSeparator: "must not contain line or paragraph separators",
  textDirection: "must not contain characters that change the direction of text",
  email: "is not a valid e-mail address",
  tooLong: (maxLength: number) => `must be at most ${maxLength} characters`,
  notChoice: (choices: readonly string[]) => `must be one of: ${choices.join(", ")}`,
} as const;

/** Field name → reason, for the fields that were refused. */
export type FieldReasons = Record<string, string>;

/**
 * The reason `value` breaks `rule`, or null when it is accepted. Surrounding
 * spaces do not count (the server trims them before it stores a value).
 */
export function checkField(rule: FieldRule, value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === "") return rule.required ? FIELD_REASONS.required : null;
  const characters = characterReason(rule.kind, trimmed);
  if (characters) return characters;
  if (trimmed.length > rule.maxLength) return FIELD_REASONS.tooLong(rule.maxLength);
  if (rule.kind === "email" && !EMAIL_PATTERN.test(trimmed)) return FIELD_REASONS.email;
  if (rule.kind === "choice" && rule.choices && !rule.choices.includes(trimmed)) {
    return FIELD_REASONS.notChoice(rule.choices);
  }
  return null;
}

/**
 * The reason `value` holds a character a field of `kind` may not hold, or
 * null: checkField's first test, and all the console's text fields ask of
 * the rules (their emptiness and length are said in the console's words).
 */
export function characterReason(kind: FieldKind, value: string): string | null {
  if (CONTROL_CHARACTER.test(value)) return FIELD_REASONS.controlCharacter;
  if (kind === "longtext") return null;
  if (kind === "multiline") {
    if (LINE_SEPARATOR.test(value)) return FIELD_REASONS.lineSeparator;
  } else if (LINE_BREAK.test(value)) {
    return FIELD_REASONS.lineBreak;
  }
  if (TEXT_DIRECTION_CONTROL.test(value)) return FIELD_REASONS.textDirection;
  return null;
}

/** Every refused field of `values` with its reason; empty when all are accepted. */
export function checkFields<K extends string>(
  rules: Record<K, FieldRule>,
  values: Record<K, string>,
): FieldReasons {
  const reasons: FieldReasons = {};
  for (const field of Object.keys(rules) as K[]) {
    const reason = checkField(rules[field], values[field] ?? "");
    if (reason) reasons[field] = reason;
  }
  return reasons;
}
