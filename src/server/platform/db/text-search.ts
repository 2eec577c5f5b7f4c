/**
 * The console's searches: "contains this text", case and accents aside, on
 * both engines ("garcia" finds García, "elodie" finds ÉLODIE). One rule for
 * every search, so none can fail where another does not.
 *
 * Both sides are folded: the text searched for here, in JavaScript, and the
 * column by the database function `fold_text`, which SQLite gets from
 * `registerTextFold` (the same JavaScript) and PostgreSQL from migration
 * 020 (`translate` over the table `foldingTable` writes). The table covers
 * the Latin letters with marks, so the two engines agree on them.
 */
import type BetterSqlite3 from "better-sqlite3";
import { type Expression, type RawBuilder, type SqlBool, sql } from "kysely";

const COMBINING_MARK = /\p{M}/gu;
/** Anything beyond ASCII, which alone needs the slower Unicode path. */
const BEYOND_ASCII = /[^\p{ASCII}]/u;

/** Lower case, without accents or other combining marks. */
export function foldText(text: string): string {
  if (!BEYOND_ASCII.test(text)) return text.toLowerCase();
  return text.normalize("NFKD").replace(COMBINING_MARK, "").toLowerCase();
}

/** The Latin letters with marks (Latin-1, Extended-A and -B, Extended Additional). */
const FOLDED_RANGES: readonly [number, number][] = [
  [0x00c0, 0x024f],
  [0x1e00, 0x1eff],
];

/**
 * What PostgreSQL's `translate` needs to fold as `foldText` does: each
 * letter of the ranges whose fold is one other letter, and that letter.
 * `translate` maps one letter to one, so the few ligatures that fold to two
 * (Ĳ, ǆ, ŉ…) stay themselves there, and a search must type them as they
 * are on PostgreSQL; letters of other scripts are lower-cased by each
 * engine's own rule.
 */
export function foldingTable(): { from: string; to: string } {
  let from = "";
  let to = "";
  for (const [first, last] of FOLDED_RANGES) {
    for (let code = first; code <= last; code += 1) {
      const letter = String.fromCodePoint(code);
      const folded = foldText(letter);
      if (folded.length === 1 && folded !== letter) {
        from += letter;
        to += folded;
      }
    }
  }
  return { from, to };
}

/** Gives a SQLite connection the `fold_text` function the searches call. */
export function registerTextFold(database: BetterSqlite3.Database): void {
  database.function("fold_text", { deterministic: true }, (value: unknown) =>
    typeof value === "string" ? foldText(value) : value,
  );
}

/**
 * Whether `column` holds `text` anywhere, case and accents aside, LIKE's own
 * `%` and `_` taken literally. A text with NUL matches nothing: no column
 * holds NUL (the field rules refuse it, and PostgreSQL cannot store it), and
 * PostgreSQL fails the whole query for a NUL in a parameter, which answered
 * 500.
 */
export function containsText(column: Expression<string>, text: string): RawBuilder<SqlBool> {
  if (text.includes("\u0000")) return sql<SqlBool>`1 = 0`;
  const pattern = `%${foldText(text).replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return sql<SqlBool>`fold_text(${column}) like ${pattern} escape '\\'`;
}
