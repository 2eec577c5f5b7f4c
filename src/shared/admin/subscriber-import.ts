/**
 * Bringing a list along: the console's subscriber import, its paths, limits,
 * payloads and words, used by the screen, its client and the server alike.
 * The file travels as multipart form data (one part, the CSV); what the
 * importer chose (the columns, the consent statement, double opt-in) travels
 * in the query, checked by the schemas below.
 */
import { z } from "zod";
import { ruledText } from "../schemas.ts";
import { ADMIN_API } from "./auth.ts";
import { MULTIPART, type RouteSlice } from "./route-entry.ts";

const BASE = `${ADMIN_API}/subscribers/import`;

export const IMPORT_ROUTES = {
  /** The file's first rows as read, and the format its header names. */
  preview: `${BASE}/preview`,
  /** Every row the import would refuse or skip, and why; nothing is written. */
  dryRun: `${BASE}/dry-run`,
  /** The import itself, in one transaction. */
  run: BASE,
} as const;

/**
 * What one file may be. A Mailchimp export of 100,000 members with its usual
 * columns is about 25 MB; the rows bound the work of one transaction. The
 * file is read as it arrives, and refused at the first line past a limit:
 * a line (a row, which quoted values may spread over several lines) or a
 * row of columns far past any export's, or more values in all than its
 * rows of such columns hold, is not a list of people.
 */
export const IMPORT_LIMITS = {
  maxMegabytes: 40,
  maxRows: 200_000,
  /** Columns of the header or of any row; an export has a few dozen. */
  maxColumns: 500,
  /** Bytes of one row, the header included, so also of any one value. */
  maxLineKilobytes: 64,
  /** Values in the whole file, the header's included: 200,000 rows of 40 columns. */
  maxCells: 8_000_000,
  /** Rows the preview shows. */
  previewRows: 5,
  /** Characters of the consent statement's source. */
  sourceMaxLength: 500,
  /** Characters of a column's name, as the mapping names it. */
  columnMaxLength: 200,
} as const;

/** The exports recognised by their header row; any other file is mapped by hand. */
export const IMPORT_FORMATS = ["mailchimp", "substack", "ghost", "other"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const FORMAT_LABELS: Record<ImportFormat, string> = {
  mailchimp: "Mailchimp audience export",
  substack: "Substack subscriber export",
  ghost: "Ghost members export",
  other: "Another CSV file",
};

/**
 * Why a row is not added. "alreadyOnList" is skipped, not refused: the
 * address is on the list now, and stays as it is.
 */
export const ROW_OUTCOMES = [
  "invalid",
  "duplicate",
  "sourceUnsubscribed",
  "sourceCleaned",
  "consentInFuture",
  "consentTooEarly",
  "suppressed",
  "unsubscribed",
  "erased",
  "alreadyOnList",
] as const;
export type RowOutcome = (typeof ROW_OUTCOMES)[number];

export const OUTCOME_LABELS: Record<RowOutcome, string> = {
  invalid: "Not a valid e-mail address",
  duplicate: "Appears earlier in the file",
  sourceUnsubscribed: "Unsubscribed in the exported list",
  sourceCleaned: "Cleaned (bounced) in the exported list",
  consentInFuture: "Its consent date in the file is later than today",
  consentTooEarly: "Its consent date in the file is before 1990",
  suppressed: "On the suppression list: it bounced or complained",
  unsubscribed: "Unsubscribed from Insight before: an import does not add it back",
  erased: "Erased on request: an import does not add it back",
  alreadyOnList: "Already on the list (skipped)",
};

/**
 * What the import makes of each column: the address, the date the consent
 * was given, the person's first and last name or whole name (split at its
 * first space), their tags, a field kept as it is, or nothing.
 */
export const COLUMN_ROLES = [
  "email",
  "date",
  "firstName",
  "lastName",
  "name",
  "tags",
  "field",
  "skip",
] as const;
export type ColumnRole = (typeof COLUMN_ROLES)[number];

export const COLUMN_ROLE_LABELS: Record<ColumnRole, string> = {
  email: "E-mail address",
  date: "Date of consent",
  firstName: "First name",
  lastName: "Last name",
  name: "Name (first and last)",
  tags: "Tags",
  field: "Kept as a field",
  skip: "Not imported",
};

const columnName = ruledText("text")
  .trim()
  .max(IMPORT_LIMITS.columnMaxLength, "Name a column of at most 200 characters.");

/** Which columns hold the address and, optionally, the date each address subscribed. */
export const importMappingSchema = z.object({
  /** The address's column, by its header; needed only for a file of no known format. */
  emailColumn: columnName.optional(),
  /** The column of the date each address gave its consent, by its header; optional. */
  dateColumn: columnName.optional(),
});
export type ImportMapping = z.infer<typeof importMappingSchema>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

const count = (n: number) => n.toLocaleString("en");

export const IMPORT_TEXTS = {
  sourceRequired: "Say where these people gave their consent.",
  sourceTooLong: `Say it in at most ${IMPORT_LIMITS.sourceMaxLength} characters.`,
  // No format named: the field is the browser's date picker, which writes it in the reader's own.
  dateRequired: "Give the full date the consent was given: day, month and year.",
  dateInFuture: "The consent cannot have been given after today.",
  dateTooEarly: "The consent cannot have been given before 1990.",
  noFile: "Choose a CSV file to import.",
  oneFile: "Send the CSV file alone: one file, and nothing else.",
  tooLarge: `The file is larger than ${IMPORT_LIMITS.maxMegabytes} MB. Split it, or leave out columns the import does not use.`,
  tooManyRows: (line: number) =>
    `The file has more than ${count(IMPORT_LIMITS.maxRows)} rows below its header (line ${count(line)} holds one more); an import takes at most ${count(IMPORT_LIMITS.maxRows)}. Split it into several files.`,
  headerTooWide: (line: number) =>
    `The header row (line ${count(line)}) has more than ${count(IMPORT_LIMITS.maxColumns)} columns; an import reads at most ${count(IMPORT_LIMITS.maxColumns)}. Leave out the columns the import does not use.`,
  rowTooWide: (line: number) =>
    `Line ${count(line)} holds more than ${count(IMPORT_LIMITS.maxColumns)} values; a row may hold at most ${count(IMPORT_LIMITS.maxColumns)}. Check its commas and quotes.`,
  lineTooLong: (line: number) =>
    `The row starting on line ${count(line)} is longer than ${IMPORT_LIMITS.maxLineKilobytes} KB, the most a row may be. Check that its quotes are closed, or leave out long columns.`,
  tooManyCells: (line: number) =>
    `The file holds more than ${count(IMPORT_LIMITS.maxCells)} values in all, the most an import reads (line ${count(line)} goes past them). Split it into several files, or leave out the columns the import does not use.`,
  notUtf8: (line: number) =>
    `The file is not UTF-8 text (line ${count(line)} is not). Export it again as CSV in UTF-8.`,
  tooHeavy:
    "Reading the file took more time or memory than the server gives an import. Split it into several files.",
  unreadable: (line: number, why: string) =>
    `The file cannot be read as CSV at line ${line}: ${why}`,
  empty: "The file holds no rows below its header.",
  chooseEmailColumn: "Choose the column that holds the e-mail addresses.",
  noSuchColumn: (name: string) => `The file has no column named "${name}".`,
  imported: (added: number) =>
    `${added.toLocaleString("en")} ${added === 1 ? "address was" : "addresses were"} added to the list.`,
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The earliest day a consent can have been given. No list a firm brings
 * along is older, and the dates before it that exports hold are the stand-ins
 * some write for a date they lack (1970-01-01, 0001-01-01): kept, they would
 * claim a consent no one gave.
 */
export const EARLIEST_CONSENT_DAY = "1990-01-01";

/**
 * How far past the server's clock a consent may seem to be: the importer's
 * today may be the server's tomorrow (UTC+14), and a file's time without a
 * zone, read as UTC, may be up to fourteen hours ahead of the moment it names.
 */
const CLOCK_ALLOWANCE_MS = DAY_MS;

/** Whether "YYYY-MM-DD" names a day that exists (not 2024-02-30, which Date rolls over). */
function isCalendarDay(value: string): boolean {
  const ms = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === value;
}

/** The latest calendar day that is today somewhere on earth. */
function latestToday(now = Date.now()): string {
  return new Date(now + CLOCK_ALLOWANCE_MS).toISOString().slice(0, 10);
}

/**
 * Why a consent date read from a file (epoch ms) cannot be true, at `now`:
 * later than today anywhere, or before the earliest day; null when it can.
 */
export function consentDateFault(
  ms: number,
  now: number,
): "consentInFuture" | "consentTooEarly" | null {
  if (ms > now + CLOCK_ALLOWANCE_MS) return "consentInFuture";
  if (ms < Date.parse(`${EARLIEST_CONSENT_DAY}T00:00:00Z`)) return "consentTooEarly";
  return null;
}

/** A date the consent was given: a calendar day, no later than today anywhere on earth, from 1990. */
const consentDay = z
  .string({ error: IMPORT_TEXTS.dateRequired })
  .trim()
  .refine((value) => DAY.test(value) && isCalendarDay(value), {
    message: IMPORT_TEXTS.dateRequired,
  })
  .refine((value) => value <= latestToday(), { message: IMPORT_TEXTS.dateInFuture })
  .refine((value) => value >= EARLIEST_CONSENT_DAY, { message: IMPORT_TEXTS.dateTooEarly });

export const importRunQuerySchema = importMappingSchema.extend({
  /** Where the consent came from: a sign-up form, an event, the list it was exported from. */
  consentSource: ruledText("text", IMPORT_TEXTS.sourceRequired)
    .trim()
    .min(1, IMPORT_TEXTS.sourceRequired)
    .max(IMPORT_LIMITS.sourceMaxLength, IMPORT_TEXTS.sourceTooLong),
  consentDate: consentDay,
  /** "true": each address must confirm by the link mailed to it before it gets an issue. */
  doubleOptIn: z.enum(["true", "false"]).default("false"),
});
export type ImportRunQuery = z.infer<typeof importRunQuerySchema>;

/** The first rows of the file as read, and what the import makes of its header. */
export const importPreviewSchema = z.object({
  format: z.enum(IMPORT_FORMATS),
  columns: z.string().array(),
  /** The columns chosen: the recognised format's, else the mapping's or a guess. */
  emailColumn: z.string().nullable(),
  dateColumn: z.string().nullable(),
  /** What each column becomes, in the header's order. */
  roles: z.enum(COLUMN_ROLES).array(),
  /** Why a column is not imported, by its name: the list's own bookkeeping, or past the fields kept. */
  skipped: z.record(z.string(), z.string()),
  rows: z.string().array().array(),
  totalRows: z.number(),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

export const rowReportSchema = z.object({
  /** The row as a spreadsheet numbers it: the header is row 1. */
  row: z.number(),
  address: z.string(),
  outcome: z.enum(ROW_OUTCOMES),
  reason: z.string(),
});
export type RowReport = z.infer<typeof rowReportSchema>;

export const importReportSchema = z.object({
  format: z.enum(IMPORT_FORMATS),
  totalRows: z.number(),
  /** Addresses that would be (or were) added. */
  added: z.number(),
  /** Addresses on the list already, left as they are. */
  alreadyOnList: z.number(),
  refused: z.number(),
  /** How many rows of each outcome. */
  counts: z.record(z.enum(ROW_OUTCOMES), z.number()),
  /** Every row not added, in file order. */
  rows: rowReportSchema.array(),
  /** The same rows as CSV text (row, address, outcome, reason), for the download. */
  csv: z.string(),
});
export type ImportReport = z.infer<typeof importReportSchema>;

export const importResultSchema = importReportSchema.extend({
  importId: z.number(),
  doubleOptIn: z.boolean(),
  message: z.string(),
});
export type ImportResult = z.infer<typeof importResultSchema>;

/**
 * This area's entries of the console's route map (console-routes.ts):
 * A list brought along: previewed, tried and run.
 */
export const IMPORT_CONSOLE_ROUTES = {
  "subscribers.importPreview": {
    method: "POST",
    path: IMPORT_ROUTES.preview,
    query: importMappingSchema,
    body: MULTIPART,
    status: 200,
    response: importPreviewSchema,
  },
  "subscribers.importDryRun": {
    method: "POST",
    path: IMPORT_ROUTES.dryRun,
    query: importMappingSchema,
    body: MULTIPART,
    status: 200,
    response: importReportSchema,
  },
  "subscribers.import": {
    method: "POST",
    path: IMPORT_ROUTES.run,
    query: importRunQuerySchema,
    body: MULTIPART,
    status: 200,
    response: importResultSchema,
  },
} as const satisfies RouteSlice;
