/**
 * `npm run subscribers:export -- --out FILE` and `npm run inquiries:export -- --out FILE`:
 * writes a CSV (RFC 4180 quoting, header row, formulas kept as text) of
 * active subscribers (for a mail tool) or of every inquiry (the console's
 * export with no filter), from the database the server is configured for.
 * Without --out the CSV goes to standard output.
 *
 * It only reads: it never creates or migrates the database, and refuses
 * one whose schema is not the one this code expects (ADR 048).
 */
import { writeFile } from "node:fs/promises";
import type { Kysely } from "kysely";
import { EXPORT_COLUMNS, exportInquiries } from "../features/inquiries/index.ts";
import { activeSubscribers } from "../features/subscriptions/index.ts";
import { csvText } from "../platform/console/csv.ts";
import { type DatabaseHandle, openDatabase } from "../platform/db/connection.ts";
import { NewerSchemaError, schemaStatus } from "../platform/db/migrations.ts";
import type { Database } from "../platform/db/schema.ts";
import { OWNER_ONLY_FILE, tighten } from "../platform/security/owner-only.ts";
import { processConfig } from "../settings.ts";
import { commandLine, Refusal, runCommand } from "./command-line.ts";

const EXPORTS = {
  subscribers: { rows: activeSubscribers, columns: ["email", "subscribed_at"] },
  inquiries: { rows: (db) => exportInquiries(db, {}), columns: EXPORT_COLUMNS },
} satisfies Record<
  string,
  { rows(db: Kysely<Database>): Promise<object[]>; columns: readonly string[] }
>;

const USAGE = `Usage: npm run subscribers:export -- [--out FILE]
       npm run inquiries:export -- [--out FILE]

Writes a CSV of the active subscribers, or of every inquiry, from the
database the server is configured for; without --out, to standard output.`;

function notRun(pending: string[]): string {
  const named = pending.length > 3 ? [...pending.slice(0, 3), "…"] : pending;
  return `${pending.length} migration${pending.length === 1 ? "" : "s"} not run: ${named.join(", ")}`;
}

/** Refuses a database this code would read wrongly: behind the code, or ahead of it. */
async function refuseUnlessCurrent(database: DatabaseHandle) {
  const { pending, unknown } = await schemaStatus(database.db, database.engine);
  if (unknown.length > 0) throw new NewerSchemaError(unknown);
  if (pending.length > 0) {
    throw new Refusal(
      `The database is not at the schema this code expects (${notRun(pending)}); start the server once with this version, which migrates it, then export again.`,
    );
  }
}

async function main() {
  const { positionals, values } = commandLine(USAGE, {
    allowPositionals: true,
    options: { out: { type: "string" } },
  });
  const [what, ...extra] = positionals;
  if ((what !== "subscribers" && what !== "inquiries") || extra.length > 0) {
    throw new Refusal(`Unexpected argument "${extra[0] ?? what ?? ""}".\n${USAGE}`);
  }
  const config = processConfig();
  const database = openDatabase({
    databaseUrl: config.DATABASE_URL,
    sqliteFile: config.SQLITE_FILE,
    readOnly: true,
  });
  try {
    await refuseUnlessCurrent(database);
    const { rows: read, columns } = EXPORTS[what];
    const rows = (await read(database.db)) as Record<string, unknown>[];
    const csv = csvText(rows, columns);
    if (values.out) {
      // Addresses and what inquirers wrote: for the site's user alone, as the database is.
      await writeFile(values.out, csv, { mode: OWNER_ONLY_FILE });
      tighten(values.out);
      console.error(`wrote ${rows.length} ${what} to ${values.out}`);
    } else {
      process.stdout.write(csv);
    }
  } finally {
    await database.db.destroy();
  }
}

runCommand(main);
