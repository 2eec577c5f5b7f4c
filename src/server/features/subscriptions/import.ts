/**
 * Bringing a list along: a CSV export read, each row judged, and the
 * addresses that may join added in one transaction.
 *
 * Every row the import will not add is reported with its reason, the dry
 * run and the import alike, since both judge the same way: an address that
 * is not valid by the subscribe form's own rule, one met earlier in the
 * file, one the exported list marks as gone, one on the suppression list, one
 * that unsubscribed from Insight before (an import is not that person
 * asking again), one erased on request; and an address on the list already
 * is skipped and left as it is. The database is asked about the addresses in
 * batches, never one row at a time, so 100,000 rows take a few hundred
 * queries.
 */
import { parse } from "csv-parse/sync";
import type { Kysely } from "kysely";
import {
  IMPORT_LIMITS,
  IMPORT_TEXTS,
  type ImportFormat,
  type ImportMapping,
  OUTCOME_LABELS,
  ROW_OUTCOMES,
  type RowOutcome,
  type RowReport,
} from "../../../shared/admin/subscriber-import.ts";
import { CONSENT_VIA } from "../../../shared/admin/subscribers.ts";
import { checkField } from "../../../shared/field-rules.ts";
import { normalizeEmail, SUBSCRIBE_EMAIL_RULE } from "../../../shared/subscription.ts";
import { csvText } from "../../platform/console/csv.ts";
import { type Database, nowIso } from "../../platform/db/schema.ts";
import { Refusal } from "../../platform/refusal.ts";
import { suppressedAmong } from "../deliverability/index.ts";
import { type FileLayout, layoutOf, readMoment } from "./import-formats.ts";
import { erasureHasher } from "./subscribers.ts";

/**
 * Addresses per lookup, and rows per INSERT (seven values each): few round
 * trips, and still well under both engines' limit on bound parameters
 * (SQLite's 32,766, PostgreSQL's 65,535).
 */
const LOOKUP_BATCH = 5_000;
const INSERT_BATCH = 2_000;

/** A file as read: its header and its rows of cells. */
export interface CsvFile {
  header: string[];
  rows: string[][];
}

interface CsvParseError {
  code?: string;
  lines?: number;
}

/**
 * The parser's faults in the importer's words. Its own messages quote the
 * field they stopped at, which may be an address: that goes neither to the
 * log nor back in an answer.
 */
const PARSE_FAULTS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: "a quoted value is never closed.",
  INVALID_OPENING_QUOTE: "a quote opens in the middle of a value.",
  CSV_INVALID_CLOSING_QUOTE: "a quote closes before the end of its value.",
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: "a quote closes before the end of its value.",
};
const PARSE_FAULT = "it is not laid out as comma-separated values.";

/**
 * Reads a CSV file, refusing, in words the importer can act on, one that is
 * not UTF-8, cannot be read as CSV, is empty or holds too many rows. The
 * byte-order mark Excel writes is dropped; rows of spaces only are skipped.
 */
export function readCsv(bytes: Buffer): CsvFile {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Refusal(IMPORT_TEXTS.notUtf8);
  }
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      // One row past the limit is enough to refuse the file.
      to: IMPORT_LIMITS.maxRows + 2,
    }) as string[][];
  } catch (error) {
    const { lines, code } = error as CsvParseError;
    throw new Refusal(IMPORT_TEXTS.unreadable(lines ?? 1, PARSE_FAULTS[code ?? ""] ?? PARSE_FAULT));
  }
  const [header, ...rows] = records;
  if (!header || rows.length === 0) throw new Refusal(IMPORT_TEXTS.empty);
  if (rows.length > IMPORT_LIMITS.maxRows) throw new Refusal(IMPORT_TEXTS.tooManyRows(rows.length));
  return { header: header.map((name) => name.trim()), rows };
}

/** An address the import would add, with the moment its consent was given. */
export interface Addition {
  row: number;
  address: string;
  /** The file's own date for the row when it has one, else the statement's day. */
  consentDate: string;
}

export interface Judgement {
  format: ImportFormat;
  totalRows: number;
  additions: Addition[];
  /** Every row not added, in file order. */
  reports: RowReport[];
  counts: Record<RowOutcome, number>;
}

/** The layout of `file`, refusing a file of no known format whose address column is not chosen. */
export function layoutFor(
  file: CsvFile,
  mapping: ImportMapping,
): FileLayout & { emailColumn: string } {
  const layout = layoutOf(file.header, mapping);
  if (!layout.emailColumn) throw new Refusal(IMPORT_TEXTS.chooseEmailColumn);
  return { ...layout, emailColumn: layout.emailColumn };
}

/** Row number as a spreadsheet shows it: the header is row 1. */
const rowNumber = (index: number) => index + 2;

function report(row: number, address: string, outcome: RowOutcome, detail?: string): RowReport {
  return {
    row,
    address,
    outcome,
    reason: detail ? `${OUTCOME_LABELS[outcome]} ${detail}` : OUTCOME_LABELS[outcome],
  };
}

/** The addresses of `addresses` found by `query`, asked LOOKUP_BATCH at a time. */
async function foundAmong<T>(
  addresses: readonly string[],
  query: (batch: string[]) => Promise<T[]>,
): Promise<T[]> {
  const found: T[] = [];
  for (let start = 0; start < addresses.length; start += LOOKUP_BATCH) {
    found.push(...(await query(addresses.slice(start, start + LOOKUP_BATCH))));
  }
  return found;
}

/**
 * Judges every row of `file`: which addresses would be added, and why every
 * other row would not. Reads the database only; the import runs it in its
 * own transaction so the judgement and the writes see the same list.
 */
export async function judgeRows(
  db: Kysely<Database>,
  file: CsvFile,
  mapping: ImportMapping,
  { secret, consentDay }: { secret: string; consentDay: string | null },
): Promise<Judgement> {
  const layout = layoutFor(file, mapping);
  const emailIndex = file.header.indexOf(layout.emailColumn);
  const dateIndex = layout.dateColumn ? file.header.indexOf(layout.dateColumn) : -1;
  const reports: RowReport[] = [];
  const firstRowOf = new Map<string, number>();
  const candidates: Addition[] = [];
  for (const [index, cells] of file.rows.entries()) {
    const row = rowNumber(index);
    const raw = cells[emailIndex] ?? "";
    const address = normalizeEmail(raw);
    if (checkField(SUBSCRIBE_EMAIL_RULE, address)) {
      reports.push(report(row, raw.trim(), "invalid"));
      continue;
    }
    const first = firstRowOf.get(address);
    if (first !== undefined) {
      reports.push(report(row, address, "duplicate", `(row ${first})`));
      continue;
    }
    firstRowOf.set(address, row);
    const state = layout.stateOf(cells);
    if (state !== "subscribed") {
      reports.push(
        report(row, address, state === "cleaned" ? "sourceCleaned" : "sourceUnsubscribed"),
      );
      continue;
    }
    const consentDate = (dateIndex >= 0 ? readMoment(cells[dateIndex]) : null) ?? consentDay ?? "";
    candidates.push({ row, address, consentDate });
  }

  const addresses = candidates.map((candidate) => candidate.address);
  const onList = new Map(
    (
      await foundAmong(addresses, (batch) =>
        db
          .selectFrom("subscriptions")
          .select(["email", "unsubscribed_at"])
          .where("email", "in", batch)
          .execute(),
      )
    ).map((row) => [row.email, row.unsubscribed_at !== null]),
  );
  const suppressed = new Set(await foundAmong(addresses, (batch) => suppressedAmong(db, batch)));
  const erasureHash = erasureHasher(secret);
  const hashOf = new Map(addresses.map((address) => [erasureHash(address), address]));
  const erased = new Set(
    (
      await foundAmong([...hashOf.keys()], (batch) =>
        db
          .selectFrom("erased_subscribers")
          .select("email_hash")
          .where("email_hash", "in", batch)
          .execute(),
      )
    ).map((row) => hashOf.get(row.email_hash)),
  );

  const additions: Addition[] = [];
  for (const candidate of candidates) {
    const left = onList.get(candidate.address);
    const outcome: RowOutcome | null =
      left === true
        ? "unsubscribed"
        : suppressed.has(candidate.address)
          ? "suppressed"
          : erased.has(candidate.address)
            ? "erased"
            : left === false
              ? "alreadyOnList"
              : null;
    if (outcome) reports.push(report(candidate.row, candidate.address, outcome));
    else additions.push(candidate);
  }
  reports.sort((a, b) => a.row - b.row);
  const counts = Object.fromEntries(ROW_OUTCOMES.map((outcome) => [outcome, 0])) as Record<
    RowOutcome,
    number
  >;
  for (const { outcome } of reports) counts[outcome] += 1;
  return {
    format: layout.format,
    totalRows: file.rows.length,
    additions,
    reports,
    counts,
  };
}

const REPORT_COLUMNS = ["row", "address", "outcome", "reason"];

/** A judgement as the console shows it, with its rows as a CSV download. */
export function reportOf(judgement: Judgement) {
  const alreadyOnList = judgement.counts.alreadyOnList;
  return {
    format: judgement.format,
    totalRows: judgement.totalRows,
    added: judgement.additions.length,
    alreadyOnList,
    refused: judgement.reports.length - alreadyOnList,
    counts: judgement.counts,
    rows: judgement.reports,
    csv: csvText(judgement.reports, REPORT_COLUMNS),
  };
}

export interface ImportStatement {
  fileName: string;
  consentSource: string;
  /** YYYY-MM-DD. */
  consentDate: string;
  doubleOptIn: boolean;
  importedBy: number | null;
}

/** A subscription the import added, for its confirmation mail. */
export interface Added {
  id: number;
  email: string;
  subscribedAt: string;
}

/**
 * Writes an import in the caller's transaction: its row in
 * subscriber_imports, the subscriptions (INSERT_BATCH per statement; an address that
 * joined meanwhile is left alone by the unique column), and, for addresses
 * active at once, their consent line with the statement. With double opt-in
 * the addresses wait for their confirmation and nothing has begun for their
 * history yet; their row names the import, whose statement it keeps.
 */
export async function writeImport(
  trx: Kysely<Database>,
  judgement: Judgement,
  statement: ImportStatement,
): Promise<{ importId: number; added: Added[] }> {
  const now = nowIso();
  const { id: importId } = await trx
    .insertInto("subscriber_imports")
    .values({
      file_name: statement.fileName,
      format: judgement.format,
      consent_source: statement.consentSource,
      consent_date: statement.consentDate,
      double_opt_in: statement.doubleOptIn ? 1 : 0,
      rows_read: judgement.totalRows,
      added: 0,
      already_on_list: 0,
      refused: 0,
      imported_by: statement.importedBy,
      created_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();

  const added: Added[] = [];
  const consentOf = new Map(judgement.additions.map((a) => [a.address, a.consentDate]));
  for (let start = 0; start < judgement.additions.length; start += INSERT_BATCH) {
    const batch = judgement.additions.slice(start, start + INSERT_BATCH);
    const rows = await trx
      .insertInto("subscriptions")
      .values(
        batch.map(({ address }) => ({
          email: address,
          subscribed_at: now,
          subscribed_via: CONSENT_VIA.import,
          confirmed_at: statement.doubleOptIn ? null : now,
          import_id: importId,
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict((conflict) => conflict.column("email").doNothing())
      .returning(["id", "email", "subscribed_at"])
      .execute();
    added.push(
      ...rows.map((row) => ({ id: row.id, email: row.email, subscribedAt: row.subscribed_at })),
    );
    if (!statement.doubleOptIn && rows.length > 0) {
      await trx
        .insertInto("subscription_events")
        .values(
          rows.map((row) => ({
            subscription_id: row.id,
            event: "subscribed" as const,
            via: CONSENT_VIA.import,
            at: now,
            consent_source: statement.consentSource,
            consent_date: consentOf.get(row.email) || statement.consentDate,
            import_id: importId,
          })),
        )
        .execute();
    }
  }
  const joinedMeanwhile = judgement.additions.length - added.length;
  const alreadyOnList = judgement.counts.alreadyOnList + joinedMeanwhile;
  await trx
    .updateTable("subscriber_imports")
    .set({
      added: added.length,
      already_on_list: alreadyOnList,
      refused: judgement.reports.length - judgement.counts.alreadyOnList,
    })
    .where("id", "=", importId)
    .execute();
  return { importId, added };
}
