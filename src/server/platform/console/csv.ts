/**
 * Sends records as a CSV download. A cell that a spreadsheet would read as
 * a formula (it starts with =, +, -, @, a tab or a carriage return) gets a
 * leading apostrophe, so a visitor's "=HYPERLINK(…)" stays text (OWASP's
 * CSV-injection advice).
 */
import { stringify } from "csv-stringify/sync";
import type { FastifyReply } from "fastify";

const FORMULA_START = /^[=+\-@\t\r]/;

export function neutralizeFormula(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The rows as CSV text: a header row of `columns`, then each row's cells in that order. */
export function csvText(rows: Record<string, unknown>[], columns: readonly string[]): string {
  const safe = rows.map((row) => columns.map((column) => neutralizeFormula(row[column])));
  return stringify([columns, ...safe]);
}

export function sendCsv(
  reply: FastifyReply,
  filename: string,
  rows: Record<string, unknown>[],
  columns: readonly string[],
) {
  const csv = csvText(rows, columns);
  return reply
    .header("content-type", "text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="${filename}"`)
    .send(csv);
}
