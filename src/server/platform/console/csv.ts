/**
 * Sends records as a CSV download. The text starts with a UTF-8 byte-order
 * mark: without it Excel reads the file in the machine's legacy code page
 * and shows "GarcÃ­a" for "García"; other readers skip the mark.
 *
 * A cell a spreadsheet would run (CSV injection) gets a leading apostrophe,
 * so it stays text (ADR 038):
 * - a cell starting with =, @, a tab or a carriage return, always;
 * - a cell starting with + or -, unless all that follows is digits, spaces
 *   and . , ( ) / + -: a phone number ("+34 600 123 456") or an amount
 *   ("-12.50") can name no function, cell or other program, so it stays as
 *   the person typed it.
 * The cell is judged as a spreadsheet that folds compatibility characters
 * (NFKC) reads it: a full-width or small ＝ ＋ － ＠ (U+FF1D, U+FF0B, U+FF0D,
 * U+FF20, U+FE66, U+FE62, U+FE63, U+FE6B) is the formula character it stands
 * for, and full-width digits after a sign are a number like any other.
 */
import { stringify } from "csv-stringify/sync";
import type { FastifyReply } from "fastify";

const BYTE_ORDER_MARK = "\uFEFF";
const ALWAYS_FORMULA = /^[=@\t\r]/;
const SIGNED = /^[+-]/;
const NUMBER_LIKE = /^[+-][\d .,()/+-]*$/;

export function neutralizeFormula(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  const read = text.normalize("NFKC");
  const runs = ALWAYS_FORMULA.test(read) || (SIGNED.test(read) && !NUMBER_LIKE.test(read));
  return runs ? `'${text}` : text;
}

/** The rows as CSV text: the byte-order mark, a header row of `columns`, then each row's cells in that order. */
export function csvText(rows: Record<string, unknown>[], columns: readonly string[]): string {
  const safe = rows.map((row) => columns.map((column) => neutralizeFormula(row[column])));
  return BYTE_ORDER_MARK + stringify([columns, ...safe]);
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
