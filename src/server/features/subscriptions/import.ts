/**
 * Bringing a list along: a CSV export read and judged row by row on a
 * worker thread (import-file.ts), then each address the file allows asked
 * of the list, and those that may join added in one transaction.
 *
 * Every row the import will not add is reported with its reason, the dry
 * run and the import alike, since both judge the same way: an address that
 * is not valid by the subscribe form's own rule, one met earlier in the
 * file, one the exported list marks as gone, one whose consent date cannot
 * be true (import-file.ts); one on the suppression list, one that
 * unsubscribed from Insight before (an import is not that person asking
 * again), one erased on request (here); and an address on the list already
 * is skipped and left as it is. The database is asked about the addresses in
 * batches, never one row at a time, so 100,000 rows take a few hundred
 * queries.
 */
import type { Kysely } from "kysely";
import {
  type ImportFormat,
  ROW_OUTCOMES,
  type RowOutcome,
  type RowReport,
} from "../../../shared/admin/subscriber-import.ts";
import { CONSENT_VIA } from "../../../shared/admin/subscribers.ts";
import { csvText } from "../../platform/console/csv.ts";
import { type Database, nowIso } from "../../platform/db/schema.ts";
import { givingWay } from "../../platform/ops/give-way.ts";
import { suppressedAmong } from "../deliverability/index.ts";
import { type Candidate, type FileRead, report } from "./import-file.ts";
import { readMoment } from "./import-formats.ts";

/**
 * Addresses per lookup, and rows per INSERT (seven values each). SQLite
 * runs each statement on the server's own thread: each batch takes a
 * millisecond or two, and the import gives way after each
 * (platform/ops/give-way.ts), so visitors are answered between the batches
 * of an import of 200,000 rows instead of after all of them.
 */
const LOOKUP_BATCH = 500;
const INSERT_BATCH = 200;

/** An address the import would add, with the moment its consent was given. */
export type Addition = Pick<Candidate, "row" | "address" | "consentDate" | "person">;

export interface Judgement {
  format: ImportFormat;
  totalRows: number;
  additions: Addition[];
  /** Every row not added, in file order. */
  reports: RowReport[];
  counts: Record<RowOutcome, number>;
}

/** The rows of `values` found by `query`, asked LOOKUP_BATCH at a time. */
async function foundAmong<T>(
  values: readonly string[],
  query: (batch: string[]) => Promise<T[]>,
  giveWay: () => Promise<void>,
): Promise<T[]> {
  const found: T[] = [];
  for (let start = 0; start < values.length; start += LOOKUP_BATCH) {
    found.push(...(await query(values.slice(start, start + LOOKUP_BATCH))));
    await giveWay();
  }
  return found;
}

/**
 * Judges the addresses a file allows against the list: which would be
 * added, and why each other would not. Reads the database only; the import
 * runs it in its own transaction so the judgement and the writes see the
 * same list.
 */
export async function judgeRows(db: Kysely<Database>, file: FileRead): Promise<Judgement> {
  const { candidates } = file;
  const reports = [...file.reports];
  const giveWay = givingWay();
  const addresses = candidates.map((candidate) => candidate.address);
  const onList = new Map(
    (
      await foundAmong(
        addresses,
        (batch) =>
          db
            .selectFrom("subscriptions")
            .select(["email", "unsubscribed_at"])
            .where("email", "in", batch)
            .execute(),
        giveWay,
      )
    ).map((row) => [row.email, row.unsubscribed_at !== null]),
  );
  const suppressed = new Set(
    await foundAmong(addresses, (batch) => suppressedAmong(db, batch), giveWay),
  );
  const erasedHashes = new Set(
    (
      await foundAmong(
        candidates.map((candidate) => candidate.erasureHash),
        (batch) =>
          db
            .selectFrom("erased_subscribers")
            .select("email_hash")
            .where("email_hash", "in", batch)
            .execute(),
        giveWay,
      )
    ).map((row) => row.email_hash),
  );

  const additions: Addition[] = [];
  for (const [index, { row, address, consentDate, erasureHash, person }] of candidates.entries()) {
    if (index % LOOKUP_BATCH === 0) await giveWay();
    const left = onList.get(address);
    const outcome: RowOutcome | null =
      left === true
        ? "unsubscribed"
        : suppressed.has(address)
          ? "suppressed"
          : erasedHashes.has(erasureHash)
            ? "erased"
            : left === false
              ? "alreadyOnList"
              : null;
    if (outcome) reports.push(report(row, address, outcome));
    else additions.push({ row, address, consentDate, person });
  }
  reports.sort((a, b) => a.row - b.row);
  const counts = Object.fromEntries(ROW_OUTCOMES.map((outcome) => [outcome, 0])) as Record<
    RowOutcome,
    number
  >;
  for (const { outcome } of reports) counts[outcome] += 1;
  return {
    format: file.summary.format,
    totalRows: file.summary.totalRows,
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
  const giveWay = givingWay();
  for (let start = 0; start < judgement.additions.length; start += INSERT_BATCH) {
    const batch = judgement.additions.slice(start, start + INSERT_BATCH);
    const consentOf = new Map(batch.map((addition) => [addition.address, addition.consentDate]));
    const tagsOf = new Map(batch.map((addition) => [addition.address, addition.person.tags]));
    const rows = await trx
      .insertInto("subscriptions")
      .values(
        batch.map(({ address, consentDate, person }) => ({
          email: address,
          first_name: person.firstName,
          last_name: person.lastName,
          fields: JSON.stringify(person.fields),
          subscribed_at: now,
          opted_in_at: readMoment(consentDate || statement.consentDate),
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
    const tags = rows.flatMap((row) =>
      (tagsOf.get(row.email) ?? []).map((tag) => ({ subscription_id: row.id, tag })),
    );
    // In parts: a batch of people with many tags each stays under both engines' parameters.
    for (let from = 0; from < tags.length; from += INSERT_BATCH) {
      await trx
        .insertInto("subscription_tags")
        .values(tags.slice(from, from + INSERT_BATCH))
        .execute();
    }
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
    await giveWay();
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
