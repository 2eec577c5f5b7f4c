/**
 * §3 and §5: the inquiry payload and its field rules. The form reads these to
 * set its attributes; the server builds its validation from the same rules.
 */

export const INQUIRY_TYPES = [
  "App development",
  "Automation",
  "Cloud Infrastructure",
  "Data Management",
  "Digital Strategy",
  "Machine Learning",
  "Predictive Analytics",
  "Tech Stack Management",
  "Something Else",
] as const;
export type InquiryType = (typeof INQUIRY_TYPES)[number];

export const INQUIRY_TYPE_PLACEHOLDER = "Inquiry Type";

export interface FieldRule {
  label: string;
  required: boolean;
  maxLength: number;
  kind: "text" | "email" | "choice" | "longtext";
}

export const INQUIRY_FIELDS = {
  firstName: { label: "First name", required: true, maxLength: 100, kind: "text" },
  lastName: { label: "Last name", required: true, maxLength: 100, kind: "text" },
  company: { label: "Company", required: false, maxLength: 200, kind: "text" },
  jobTitle: { label: "Job title", required: false, maxLength: 200, kind: "text" },
  email: { label: "Email", required: true, maxLength: 254, kind: "email" },
  phoneNumber: { label: "Phone number", required: true, maxLength: 40, kind: "text" },
  inquiryType: { label: "Inquiry type", required: true, maxLength: 40, kind: "choice" },
  comments: { label: "Comments", required: true, maxLength: 5000, kind: "longtext" },
} as const satisfies Record<string, FieldRule>;

export type InquiryField = keyof typeof INQUIRY_FIELDS;

export interface Inquiry {
  firstName: string;
  lastName: string;
  company: string;
  jobTitle: string;
  email: string;
  phoneNumber: string;
  inquiryType: InquiryType;
  comments: string;
}
