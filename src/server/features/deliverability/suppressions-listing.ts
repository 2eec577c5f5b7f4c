/**
 * The console's view of the suppression list: the suppressed addresses,
 * newest first, each with the report that put it there, and lifting one.
 */
import { type InferResult, type Kysely, sql } from "kysely";
import { PAGE_SIZE } from "../../../shared/admin/subscribers.ts";
import type { SuppressionFilter, SuppressionRow } from "../../../shared/admin/suppressions.ts";
import type { Database, SuppressionReason } from "../../platform/db/schema.ts";
import { containsText } from "../../platform/db/text-search.ts";

/** The suppressions that match the filter: part of the address, and the reason. */
function matching(db: Kysely<Database>, { q, reason }: SuppressionFilter) {
  let query = db.selectFrom("suppressions");
  if (q) query = query.where(containsText(sql.ref("suppressions.email"), q));
  if (reason !== "all") query = query.where("suppressions.reason", "=", reason);
  return query;
}

/** The matching suppressions with their reports (a report may be about an issue), newest first. */
function withReports(db: Kysely<Database>, filter: SuppressionFilter) {
  return matching(db, filter)
    .leftJoin("delivery_reports as report", "report.id", "suppressions.report_id")
    .leftJoin("issues", "issues.id", "report.issue_id")
    .select([
      "suppressions.id",
      "suppressions.email",
      "suppressions.reason",
      "suppressions.created_at",
      "report.kind as report_kind",
      "report.status as report_status",
      "report.source as report_source",
      "report.received_at as report_received_at",
      "report.issue_id as issue_id",
      "report.text as report_text",
      "issues.title as issue_title",
    ])
    .orderBy("suppressions.created_at", "desc")
    .orderBy("suppressions.id", "desc");
}

type StoredRow = InferResult<ReturnType<typeof withReports>>[number];

function toRow(row: StoredRow): SuppressionRow {
  const { report_kind: kind, report_source: source, report_received_at: receivedAt } = row;
  return {
    id: row.id,
    email: row.email,
    reason: row.reason,
    since: row.created_at,
    // The left join finds no report when its row is no longer kept.
    report:
      kind === null || source === null || receivedAt === null
        ? null
        : {
            kind,
            status: row.report_status,
            source,
            receivedAt,
            issue: row.issue_id === null ? null : { id: row.issue_id, title: row.issue_title },
            text: row.report_text ?? "",
          },
  };
}

/** One page of the filtered list, and how many match in all. */
export async function listSuppressions(
  db: Kysely<Database>,
  filter: SuppressionFilter,
  page: number,
): Promise<{ items: SuppressionRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    withReports(db, filter)
      .limit(PAGE_SIZE)
      .offset((page - 1) * PAGE_SIZE)
      .execute(),
    matching(db, filter)
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toRow), total: Number(count.n) };
}

export const EXPORT_COLUMNS = [
  "address",
  "reason",
  "suppressed_at",
  "report_kind",
  "report_status",
  "report_source",
  "issue",
] as const;

/** Every row of the filter, for the CSV export; the reports' own words stay in the console. */
export async function exportSuppressions(db: Kysely<Database>, filter: SuppressionFilter) {
  const rows = await withReports(db, filter).execute();
  return rows.map((row) => ({
    address: row.email,
    reason: row.reason,
    suppressed_at: row.created_at,
    report_kind: row.report_kind ?? "",
    report_status: row.report_status ?? "",
    report_source: row.report_source ?? "",
    issue: row.issue_title ?? row.issue_id ?? "",
  }));
}

/**
 * Takes one suppression off the list; undefined when it is not there (lifted
 * meanwhile). One statement decides, so of two owners lifting at once only
 * one lifts it, and an address suppressed again since keeps its new row.
 */
export function liftSuppressionById(
  db: Kysely<Database>,
  id: number,
): Promise<{ email: string; reason: SuppressionReason } | undefined> {
  return db
    .deleteFrom("suppressions")
    .where("id", "=", id)
    .returning(["email", "reason"])
    .executeTakeFirst();
}
