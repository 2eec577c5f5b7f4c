/**
 * `npm run subscribers:export -- --out FILE` and `npm run inquiries:export -- --out FILE`:
 * writes a CSV (RFC 4180 quoting, header row, formulas kept as text) of
 * active subscribers (for a mail tool) or of every inquiry (the console's
 * export with no filter), from the database the server is configured for.
 * Without --out the CSV goes to standard output.
 */
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import type { Kysely } from "kysely";
import { EXPORT_COLUMNS, exportInquiries } from "../features/inquiries/index.ts";
import { activeSubscribers } from "../features/subscriptions/index.ts";
import { ConfigError, loadConfig } from "../platform/config.ts";
import { csvText } from "../platform/console/csv.ts";
import { openDatabase } from "../platform/db/connection.ts";
import { migrateToLatest } from "../platform/db/migrations.ts";
import type { Database } from "../platform/db/schema.ts";

const EXPORTS = {
  subscribers: { rows: activeSubscribers, columns: ["email", "subscribed_at"] },
  inquiries: { rows: (db) => exportInquiries(db, {}), columns: EXPORT_COLUMNS },
} satisfies Record<
  string,
  { rows(db: Kysely<Database>): Promise<object[]>; columns: readonly string[] }
>;

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { out: { type: "string" } },
  });
  const what = positionals[0];
  if (what !== "subscribers" && what !== "inquiries") {
    throw new ConfigError("Usage: export.ts subscribers|inquiries [--out FILE]");
  }
  const config = loadConfig();
  const { db, engine } = openDatabase({
    databaseUrl: config.DATABASE_URL,
    sqliteFile: config.SQLITE_FILE,
  });
  try {
    await migrateToLatest(db, engine);
    const { rows: read, columns } = EXPORTS[what];
    const rows = (await read(db)) as Record<string, unknown>[];
    const csv = csvText(rows, columns);
    if (values.out) {
      await writeFile(values.out, csv);
      console.error(`wrote ${rows.length} ${what} to ${values.out}`);
    } else {
      process.stdout.write(csv);
    }
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
