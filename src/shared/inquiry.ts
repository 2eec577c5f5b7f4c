/**
 * The inquiry payload's field rules, as plain data. The form reads
 * them for its attributes and checks each value with them before sending
 * (field-rules.ts), without loading a validation library; schemas.ts builds
 * the server's validation from the same rules.
 */
import { ITEM_NAME_MAX } from "./content-categories.ts";
import { checkFields, type FieldReasons, type FieldRule } from "./field-rules.ts";

export type { FieldRule } from "./field-rules.ts";

/** One option is spelt differently from its capability: "App development". */
const INQUIRY_SPELLING: Readonly<Record<string, string>> = {
  "App Development": "App development",
};

/** The option for an inquiry about none of the capabilities: always offered, always last. */
export const OTHER_INQUIRY_TYPE = "Something Else";

/**
 * The inquiry types offered while these capabilities (the visible ones, in
 * the firm's order) are on the site: one per capability, then "Something
 * Else". The firm edits the capabilities in the console, so the list is
 * never fixed in code: the form, the server's check and the inbox's filter
 * all make it from the content.
 */
export function inquiryTypesOf(capabilities: readonly string[]): string[] {
  return [
    ...new Set([...capabilities.map((name) => INQUIRY_SPELLING[name] ?? name), OTHER_INQUIRY_TYPE]),
  ];
}

export const INQUIRY_TYPE_PLACEHOLDER = "Inquiry Type";

export const INQUIRY_FIELDS = {
  firstName: { label: "First name", required: true, maxLength: 100, kind: "text" },
  lastName: { label: "Last name", required: true, maxLength: 100, kind: "text" },
  company: { label: "Company", required: false, maxLength: 200, kind: "text" },
  jobTitle: { label: "Job title", required: false, maxLength: 200, kind: "text" },
  email: { label: "Email", required: true, maxLength: 254, kind: "email" },
  phoneNumber: { label: "Phone number", required: true, maxLength: 40, kind: "text" },
  // Its choices are the current inquiry types (inquiryRules): a capability's name may be this long.
  inquiryType: { label: "Inquiry type", required: true, maxLength: ITEM_NAME_MAX, kind: "choice" },
  comments: { label: "Comments", required: true, maxLength: 5000, kind: "longtext" },
} as const satisfies Record<string, FieldRule>;

export type InquiryField = keyof typeof INQUIRY_FIELDS;

/** The inquiry as a form holds it: every field as the visitor typed it. */
export type InquiryValues = Record<InquiryField, string>;

const INQUIRY_FIELD_NAMES = Object.keys(INQUIRY_FIELDS) as InquiryField[];

/** The form's fields from posted form data (absent fields are empty). */
export function inquiryValuesFrom(data: { get(name: string): unknown }): InquiryValues {
  const value = (field: InquiryField) => {
    const given = data.get(field);
    return typeof given === "string" ? given : "";
  };
  return Object.fromEntries(
    INQUIRY_FIELD_NAMES.map((field) => [field, value(field)]),
  ) as InquiryValues;
}

/** The field rules with the inquiry types offered now as the type's choices. */
export function inquiryRules(types: readonly string[]): Record<InquiryField, FieldRule> {
  return { ...INQUIRY_FIELDS, inquiryType: { ...INQUIRY_FIELDS.inquiryType, choices: types } };
}

/** Each field the server would refuse while `types` are offered, with its reason (the server's own words). */
export function checkInquiry(values: InquiryValues, types: readonly string[]): FieldReasons {
  return checkFields(inquiryRules(types), values);
}
