/**
 * The lists a firm brings along, told apart by their header rows: what each
 * export calls the address, the date the person signed up, and how it marks
 * someone who left. A file of no known shape is read by the columns the
 * importer chose.
 *
 * - Mailchimp's audience export ("Email Address", "First Name", …,
 *   "MEMBER_RATING", "OPTIN_TIME", "CONFIRM_TIME", "LEID", …). Its
 *   unsubscribed and cleaned exports add "UNSUB_TIME" or "CLEAN_TIME": a row
 *   with one of those filled in left the list, or bounced, there.
 * - Substack's subscriber export ("email", "active_subscription", "expiry",
 *   "plan", "email_disabled", "created_at", …): "email_disabled" true means
 *   the reader turned its e-mails off.
 * - Ghost's members export ("id", "email", "name", "note",
 *   "subscribed_to_emails", "complimentary_plan", "stripe_customer_id",
 *   "created_at", "deleted_at", "labels", …): "subscribed_to_emails" false
 *   means the member does not take the newsletter.
 */
import {
  IMPORT_TEXTS,
  type ImportFormat,
  type ImportMapping,
} from "../../../shared/admin/subscriber-import.ts";
import { Refusal } from "../../platform/refusal.ts";

/** Where a row stands in the list it was exported from. */
export type SourceState = "subscribed" | "unsubscribed" | "cleaned";

/** How the rows of one file are read. */
export interface FileLayout {
  format: ImportFormat;
  /** The address's column, or null when a file of no known format has none chosen yet. */
  emailColumn: string | null;
  /** The column of the date each person signed up or confirmed, if any. */
  dateColumn: string | null;
  /** Where a row (its cells, in the header's order) stands in its source list. */
  stateOf(cells: readonly string[]): SourceState;
}

const MAILCHIMP_MARKS = ["MEMBER_RATING", "OPTIN_TIME", "CONFIRM_TIME", "LEID", "EUID"];

const isTrue = (value: string | undefined) => value?.trim().toLowerCase() === "true";
const isFalse = (value: string | undefined) => value?.trim().toLowerCase() === "false";
const filled = (value: string | undefined) => (value?.trim() ?? "") !== "";

/** The export a header row comes from, or "other". */
export function recognise(header: readonly string[]): ImportFormat {
  const has = (name: string) => header.includes(name);
  if (has("Email Address") && MAILCHIMP_MARKS.some(has)) return "mailchimp";
  if (has("email") && has("active_subscription")) return "substack";
  if (has("email") && has("subscribed_to_emails")) return "ghost";
  return "other";
}

/** What a header calls the address, once its case, spaces, hyphens and underscores are set aside. */
const EMAIL_HEADERS = new Set(["email", "emailaddress", "mail", "emailid"]);

/**
 * An "e-mail"-like header of a file of no known format ("email", "E-mail",
 * "Email Address", "email_address"…): the column offered first.
 */
function guessEmailColumn(header: readonly string[]): string | null {
  return (
    header.find((name) => EMAIL_HEADERS.has(name.toLowerCase().replace(/[\s_-]/g, ""))) ?? null
  );
}

/**
 * How the rows of a file with `header` are read: a recognised export's own
 * columns, else the importer's mapping (or, before they chose, a guess at
 * the address's column). A mapping naming a column the file lacks is refused.
 */
export function layoutOf(header: readonly string[], mapping: ImportMapping): FileLayout {
  const format = recognise(header);
  const column = (name: string) => header.indexOf(name);
  const cell = (cells: readonly string[], name: string) => {
    const index = column(name);
    return index < 0 ? undefined : cells[index];
  };
  switch (format) {
    case "mailchimp":
      return {
        format,
        emailColumn: "Email Address",
        dateColumn: header.includes("CONFIRM_TIME")
          ? "CONFIRM_TIME"
          : header.includes("OPTIN_TIME")
            ? "OPTIN_TIME"
            : null,
        stateOf: (cells) =>
          filled(cell(cells, "CLEAN_TIME"))
            ? "cleaned"
            : filled(cell(cells, "UNSUB_TIME"))
              ? "unsubscribed"
              : "subscribed",
      };
    case "substack":
      return {
        format,
        emailColumn: "email",
        dateColumn: header.includes("created_at") ? "created_at" : null,
        stateOf: (cells) => (isTrue(cell(cells, "email_disabled")) ? "unsubscribed" : "subscribed"),
      };
    case "ghost":
      return {
        format,
        emailColumn: "email",
        dateColumn: header.includes("created_at") ? "created_at" : null,
        stateOf: (cells) =>
          isFalse(cell(cells, "subscribed_to_emails")) || filled(cell(cells, "deleted_at"))
            ? "unsubscribed"
            : "subscribed",
      };
    case "other": {
      for (const name of [mapping.emailColumn, mapping.dateColumn]) {
        if (name && !header.includes(name)) throw new Refusal(IMPORT_TEXTS.noSuchColumn(name));
      }
      return {
        format,
        emailColumn: mapping.emailColumn || guessEmailColumn(header),
        dateColumn: mapping.dateColumn || null,
        stateOf: () => "subscribed",
      };
    }
  }
}

const MOMENT_WITHOUT_ZONE = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A file's date as an ISO-8601 moment, or null when it is empty or not a
 * date this reads. Mailchimp writes "2024-03-05 14:02:11" in UTC, Substack
 * and Ghost ISO-8601 with their zone; a day alone is taken as its start in UTC.
 */
export function readMoment(value: string | undefined): string | null {
  const text = value?.trim() ?? "";
  if (text === "") return null;
  let iso = text;
  if (DAY_ONLY.test(text)) iso = `${text}T00:00:00Z`;
  else if (MOMENT_WITHOUT_ZONE.test(text)) iso = `${text.replace(" ", "T")}Z`;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
