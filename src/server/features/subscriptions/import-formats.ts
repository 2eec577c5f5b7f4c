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
  type ColumnRole,
  IMPORT_TEXTS,
  type ImportFormat,
  type ImportMapping,
} from "../../../shared/admin/subscriber-import.ts";
import { cleanTags, PERSON_LIMITS } from "../../../shared/admin/subscribers.ts";
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
  /** What each column becomes, in the header's order (columnRoles). */
  roles: ColumnRole[];
  /** Why each column not imported is not, by its name. */
  skipped: Record<string, string>;
  /** Where a row (its cells, in the header's order) stands in its source list. */
  stateOf(cells: readonly string[]): SourceState;
}

/** What a row says of the person, besides their address: as the subscriber keeps it. */
export interface PersonCells {
  firstName: string | null;
  lastName: string | null;
  tags: string[];
  /** Column name to value, the non-empty ones, in the header's order. */
  fields: Record<string, string>;
}

const BOOKKEEPING = "The exported list's own record of where the person stands there.";
const TRACE =
  "Where, when or from what address the person signed up: this site keeps no such trace.";
const DATE_ELSEWHERE = "The consent date is read from another column.";
const PAST_FIELDS = `Past the ${PERSON_LIMITS.fields} fields a subscriber keeps.`;

/** Each known export's columns of the person, by name; its other columns are kept as fields. */
const NAMED: Record<Exclude<ImportFormat, "other">, Record<string, ColumnRole>> = {
  mailchimp: { "First Name": "firstName", "Last Name": "lastName", TAGS: "tags" },
  substack: { name: "name" },
  ghost: { name: "name", labels: "tags" },
};

/** Each known export's columns that are not the person's, and why they are left out. */
const SKIPPED: Record<Exclude<ImportFormat, "other">, Record<string, string>> = {
  mailchimp: {
    OPTIN_TIME: DATE_ELSEWHERE,
    CONFIRM_TIME: DATE_ELSEWHERE,
    OPTIN_IP: TRACE,
    CONFIRM_IP: TRACE,
    LATITUDE: TRACE,
    LONGITUDE: TRACE,
    GMTOFF: TRACE,
    DSTOFF: TRACE,
    TIMEZONE: TRACE,
    CC: TRACE,
    REGION: TRACE,
    LAST_CHANGED: BOOKKEEPING,
    LEID: BOOKKEEPING,
    EUID: BOOKKEEPING,
    UNSUB_TIME: BOOKKEEPING,
    UNSUB_CAMPAIGN_TITLE: BOOKKEEPING,
    UNSUB_CAMPAIGN_ID: BOOKKEEPING,
    UNSUB_REASON: BOOKKEEPING,
    UNSUB_REASON_OTHER: BOOKKEEPING,
    CLEAN_TIME: BOOKKEEPING,
    CLEAN_CAMPAIGN_TITLE: BOOKKEEPING,
    CLEAN_CAMPAIGN_ID: BOOKKEEPING,
  },
  substack: {
    created_at: DATE_ELSEWHERE,
    active_subscription: BOOKKEEPING,
    email_disabled: BOOKKEEPING,
    expiry: BOOKKEEPING,
  },
  ghost: {
    id: BOOKKEEPING,
    created_at: DATE_ELSEWHERE,
    deleted_at: BOOKKEEPING,
    subscribed_to_emails: BOOKKEEPING,
    complimentary_plan: BOOKKEEPING,
    stripe_customer_id: BOOKKEEPING,
  },
};

/** What a file of no known format's header may call the person's name and tags, set apart as `flat` makes it. */
const OTHER_NAMED: Record<string, ColumnRole> = {
  firstname: "firstName",
  first: "firstName",
  fname: "firstName",
  givenname: "firstName",
  forename: "firstName",
  lastname: "lastName",
  last: "lastName",
  lname: "lastName",
  surname: "lastName",
  familyname: "lastName",
  name: "name",
  fullname: "name",
  tags: "tags",
  tag: "tags",
  labels: "tags",
};

/** A header without its case, spaces, hyphens and underscores. */
const flat = (name: string) => name.toLowerCase().replace(/[\s_-]/g, "");

/**
 * What each column of `header` becomes: the address's and the date's, the
 * person's named columns, the export's bookkeeping left out, and every other
 * column kept as a field, up to PERSON_LIMITS.fields of them.
 */
function columnRoles(
  format: ImportFormat,
  header: readonly string[],
  emailColumn: string | null,
  dateColumn: string | null,
): { roles: ColumnRole[]; skipped: Record<string, string> } {
  const skipped: Record<string, string> = {};
  let fields = 0;
  const roles = header.map((name): ColumnRole => {
    if (name === emailColumn) return "email";
    if (name === dateColumn) return "date";
    const named = format === "other" ? OTHER_NAMED[flat(name)] : NAMED[format][name];
    if (named) return named;
    const why = format === "other" ? undefined : SKIPPED[format][name];
    if (why) {
      skipped[name] = why;
      return "skip";
    }
    if (name === "" || fields === PERSON_LIMITS.fields) {
      skipped[name] = name === "" ? "A column without a name." : PAST_FIELDS;
      return "skip";
    }
    fields += 1;
    return "field";
  });
  return { roles, skipped };
}

/**
 * A cell of tags as the exports write them: Mailchimp's `"Client","2024 event"`,
 * Ghost's `client, event`. Commas outside quotes part them; the quotes go.
 * One pass over the cell.
 */
export function splitTags(cell: string): string[] {
  const tags: string[] = [];
  let current = "";
  let quoted = false;
  for (const char of cell) {
    if (char === '"') quoted = !quoted;
    else if (char === "," && !quoted) {
      tags.push(current);
      current = "";
    } else current += char;
  }
  tags.push(current);
  return cleanTags(tags);
}

const nameCell = (value: string | undefined) => {
  const text = value?.trim().slice(0, PERSON_LIMITS.name).trim() ?? "";
  return text === "" ? null : text;
};

/** What a row's cells say of the person, by the columns' roles. */
export function personOf(
  layout: Pick<FileLayout, "roles">,
  header: readonly string[],
  cells: readonly string[],
): PersonCells {
  const person: PersonCells = { firstName: null, lastName: null, tags: [], fields: {} };
  layout.roles.forEach((role, index) => {
    const value = cells[index];
    switch (role) {
      case "firstName":
        person.firstName = nameCell(value);
        return;
      case "lastName":
        person.lastName = nameCell(value);
        return;
      case "name": {
        const whole = value?.trim() ?? "";
        const space = whole.search(/\s/);
        person.firstName ??= nameCell(space < 0 ? whole : whole.slice(0, space));
        person.lastName ??= space < 0 ? null : nameCell(whole.slice(space));
        return;
      }
      case "tags":
        person.tags = cleanTags([...person.tags, ...splitTags(value ?? "")]);
        return;
      case "field": {
        const text = value?.trim() ?? "";
        const name = (header[index] ?? "").slice(0, PERSON_LIMITS.fieldName);
        if (text !== "") person.fields[name] = text.slice(0, PERSON_LIMITS.fieldValue);
        return;
      }
      default:
        return;
    }
  });
  return person;
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
  const reading = readingOf(header, mapping);
  return {
    ...reading,
    ...columnRoles(reading.format, header, reading.emailColumn, reading.dateColumn),
  };
}

/** The layout's address, date and states, before the other columns' roles. */
function readingOf(
  header: readonly string[],
  mapping: ImportMapping,
): Omit<FileLayout, "roles" | "skipped"> {
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
