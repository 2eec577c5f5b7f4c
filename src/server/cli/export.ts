/**
 * `npm run subscribers:export -- --out FILE` and `npm run inquiries:export -- --out FILE`:
 * writes a CSV (RFC 4180 quoting, header row) of active subscribers or of every
 * inquiry, from the database the server is configured for. Without --out the
 * CSV goes to standard output.
 */
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { stringify } from "csv-stringify/sync";
import { ConfigError, loadConfig } from "../config.ts";
import { openDatabase } from "../db/connection.ts";
import { activeSubscribers, allInquiries } from "../db/exports.ts";
import { migrateToLatest } from "../db/migrations.ts";

const EXPORTS = { subscribers: activeSubscribers, inquiries: allInquiries } as const;

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
    const rows = await EXPORTS[what](db);
    const csv = stringify(rows, { header: true });
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
