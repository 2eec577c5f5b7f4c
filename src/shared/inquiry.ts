/**
 * The inquiry payload's field rules, as plain data. The form reads
 * them for its attributes and checks each value with them before sending
 * (field-rules.ts), without loading a validation library; schemas.ts builds
 * the server's validation from the same rules.
 */
import { CAPABILITIES, type Capability } from "./capabilities.ts";
import { checkFields, type FieldReasons, type FieldRule } from "./field-rules.ts";

export type { FieldRule } from "./field-rules.ts";

/** One option is spelt differently from its capability: "App development". */
const INQUIRY_SPELLING: Partial<Record<Capability, string>> = {
  "App Development": "App development",
};

/** One inquiry type per capability, then "Something Else". */
export const INQUIRY_TYPES = [
  ...CAPABILITIES.map((name) => INQUIRY_SPELLING[name] ?? name),
  "Something Else",
] as const;

export const INQUIRY_TYPE_PLACEHOLDER = "Inquiry Type";

export const INQUIRY_FIELDS = {
  firstName: { label: "First name", required: true, maxLength: 100, kind: "text" },
  lastName: { label: "Last name", required: true, maxLength: 100, kind: "text" },
  company: { label: "Company", required: false, maxLength: 200, kind: "text" },
  jobTitle: { label: "Job title", required: false, maxLength: 200, kind: "text" },
  email: { label: "Email", required: true, maxLength: 254, kind: "email" },
  phoneNumber: { label: "Phone number", required: true, maxLength: 40, kind: "text" },
  inquiryType: {
    label: "Inquiry type",
    required: true,
    maxLength: 40,
    kind: "choice",
    choices: INQUIRY_TYPES,
  },
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

/** Each field the server would refuse, with its reason (the server's own words). */
export function checkInquiry(values: InquiryValues): FieldReasons {
  return checkFields(INQUIRY_FIELDS, values);
}
