/**
 * The console's searches: "contains this text", case aside, on both engines.
 * One rule for every search, so none can fail where another does not.
 */
import { type Expression, type RawBuilder, type SqlBool, sql } from "kysely";

/**
 * Whether `column` holds `text` anywhere, case aside (lower() on both sides:
 * SQLite's LIKE and PostgreSQL's differ in case), LIKE's own `%` and `_`
 * taken literally. A text with NUL matches nothing: no column holds NUL (the
 * field rules refuse it, and PostgreSQL cannot store it), and PostgreSQL
 * fails the whole query for a NUL in a parameter, which answered 500.
 */
export function containsText(column: Expression<string>, text: string): RawBuilder<SqlBool> {
  if (text.includes("\u0000")) return sql<SqlBool>`1 = 0`;
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return sql<SqlBool>`lower(${column}) like ${pattern} escape '\\'`;
}
