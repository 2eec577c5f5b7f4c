import { sql } from "kysely";
import type { Engine } from "../connection.ts";
import { foldingTable } from "../text-search.ts";
import type { AnyDb } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  // The console's searches compare folded text: lower case, accents
  // aside. SQLite's connection brings the function itself; here
  // PostgreSQL gets the same fold as one translate over the Latin
  // letters with marks (the table is only letters, no quote).
  if (engine !== "postgres") return;
  const { from, to } = foldingTable();
  await sql`
    create or replace function fold_text(value text) returns text
    language sql immutable parallel safe
    as ${sql.lit(`select translate(lower(value), '${from}', '${to}')`)}
  `.execute(db);
}
