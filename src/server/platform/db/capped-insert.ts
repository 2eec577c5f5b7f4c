/**
 * Adds one row to a list the firm keeps short (the goals' pages, the
 * subscribe page's topics) in one statement: an INSERT … SELECT that
 * inserts nothing once the table holds `max` rows, so no read-then-write
 * lets two editors pass the limit together by much, and the column's
 * unique constraint refuses a repeat.
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "./schema.ts";
import { isUniqueViolation } from "./unique-violation.ts";

/** The short lists: each an id and one unique text column. */
type ShortList = { table: "audience_goals"; column: "path" } | { table: "topics"; column: "name" };

/** The new row's id, "taken" when the value is there already, or "full" at `max` rows. */
export async function insertBelowLimit(
  db: Kysely<Database>,
  { table, column }: ShortList,
  value: string,
  max: number,
): Promise<number | "taken" | "full"> {
  try {
    const row = await sql<{ id: number }>`
      insert into ${sql.table(table)} (${sql.ref(column)})
      select cast(${value} as text)
      where (select count(*) from ${sql.table(table)}) < ${max}
      returning id`.execute(db);
    return row.rows[0]?.id ?? "full";
  } catch (error) {
    if (isUniqueViolation(error)) return "taken";
    throw error;
  }
}
