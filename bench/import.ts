/**
 * `npm run bench:import`: bringing a list of ROWS (100,000) addresses along,
 * on SQLite and, when TEST_DATABASE_URL or --database-url names a server,
 * PostgreSQL. Each engine measures, in one run on a fresh database:
 * - the baseline: the same addresses inserted into subscriptions as plainly
 *   as the engine allows (500 rows per INSERT, one transaction, no checks,
 *   no history);
 * - the import as the console runs it, from the CSV's bytes: reading the
 *   file, judging every row (the address rule, duplicates, the list, the
 *   suppression list and the erased hashes, asked in batches), and writing
 *   the subscriptions, their consent lines and the import's row in one
 *   transaction;
 * - the dry run of the same file against the list it just filled (every
 *   row found "already on the list");
 * - the import with double opt-in: the same, plus one confirmation e-mail
 *   per address queued in the same transaction.
 * The request's upload and the audit entry are left out: one multipart body
 * and one row. Target: under 30 s per import on both engines. Prints a
 * Markdown table for docs/benchmarks.md.
 */
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import pino from "pino";
import { judgeRows, writeImport } from "../src/server/features/subscriptions/import.ts";
import { readWholeFile } from "../src/server/features/subscriptions/import-file.ts";
import { SubscriptionMail } from "../src/server/features/subscriptions/mail.tsx";
import { type DatabaseHandle, openDatabase } from "../src/server/platform/db/connection.ts";
import { migrateToLatest } from "../src/server/platform/db/migrations.ts";
import { nowIso } from "../src/server/platform/db/schema.ts";
import { inTransaction } from "../src/server/platform/db/transaction.ts";
import { inOutboxTransaction } from "../src/server/platform/outbox/queue.ts";
import type { TestDatabase } from "../test/support/engines.ts";
import { mailchimpExport } from "./support/mailchimp-export.ts";

const { values: args } = parseArgs({ options: { "database-url": { type: "string" } } });
if (args["database-url"]) process.env.TEST_DATABASE_URL = args["database-url"];
// Read after the option is applied: the engine list depends on TEST_DATABASE_URL.
const { ENGINES } = await import("../test/support/engines.ts");

const ROWS = Number(process.env.ROWS ?? 100_000);
const BATCH = 500;
const SECRET = "a bench secret of at least thirty-two characters";

const addresses = (domain: string) =>
  Array.from({ length: ROWS }, (_, n) => `reader-${n}@${domain}`);

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

async function baseline({ db }: DatabaseHandle, emails: readonly string[]) {
  const now = nowIso();
  await inTransaction(db, async (trx) => {
    for (let start = 0; start < emails.length; start += BATCH) {
      await trx
        .insertInto("subscriptions")
        .values(
          emails.slice(start, start + BATCH).map((email) => ({
            email,
            subscribed_at: now,
            subscribed_via: "import",
            confirmed_at: now,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    }
  });
}

const statement = (doubleOptIn: boolean) => ({
  fileName: "bench.csv",
  consentSource: "The sign-up form of the list we left",
  consentDate: "2024-06-30",
  doubleOptIn,
  importedBy: null,
});

/** The file read and judged as the console's worker does, here on this thread. */
const read = (bytes: Buffer, consentDay: string | null) =>
  readWholeFile([bytes], { mapping: {}, judge: true, consentDay, secret: SECRET, now: Date.now() });

async function importFile({ db }: DatabaseHandle, bytes: Buffer) {
  const file = read(bytes, "2024-06-30");
  return inTransaction(db, async (trx) => {
    const judgement = await judgeRows(trx, file);
    return (await writeImport(trx, judgement, statement(false))).added.length;
  });
}

async function dryRun({ db }: DatabaseHandle, bytes: Buffer) {
  const judgement = await judgeRows(db, read(bytes, null));
  return judgement.counts.alreadyOnList;
}

async function importWithConfirmations({ db }: DatabaseHandle, bytes: Buffer) {
  const mail = new SubscriptionMail(
    {
      publicOrigin: "https://firm.example",
      signingSecret: SECRET,
      cooldown: { minutes: 0, now: Date.now },
      mailSettings: async () => ({ from: '"Meridian" <news@firm.example>', welcomeText: null }),
    },
    pino({ level: "silent" }),
  );
  return inOutboxTransaction(
    db,
    async (trx) => {
      const judgement = await judgeRows(trx, read(bytes, "2024-06-30"));
      const { added } = await writeImport(trx, judgement, statement(true));
      return mail.confirmations(
        trx,
        added.map((row) => ({ ...row, unsubscribedAt: null })),
        48,
      );
    },
    () => {},
  );
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const rows: string[] = [];
for (const engine of ENGINES) {
  const testDb: TestDatabase = await engine.create();
  const database = openDatabase({
    databaseUrl: testDb.env.DATABASE_URL,
    sqliteFile: testDb.env.SQLITE_FILE ?? ":memory:",
  });
  try {
    await migrateToLatest(database.db, database.engine);
    const plain = await timed(() => baseline(database, addresses("baseline.example")));
    const file = mailchimpExport(addresses("import.example"));
    const imported = await timed(() => importFile(database, file));
    if (imported.value !== ROWS) throw new Error(`imported ${imported.value} of ${ROWS}`);
    const checked = await timed(() => dryRun(database, file));
    if (checked.value !== ROWS) throw new Error(`the dry run found ${checked.value} on the list`);
    const confirmFile = mailchimpExport(addresses("confirm.example"));
    const confirmed = await timed(() => importWithConfirmations(database, confirmFile));
    if (confirmed.value !== ROWS) throw new Error(`queued ${confirmed.value} confirmations`);
    rows.push(
      `| ${engine.engine} | ${ROWS.toLocaleString("en")} | ${seconds(plain.ms)} | ${seconds(imported.ms)} | ${seconds(checked.ms)} | ${seconds(confirmed.ms)} |`,
    );
    console.error(`${engine.engine}: done`);
  } finally {
    await database.db.destroy();
    await testDb.drop();
    const sqliteFile = testDb.env.SQLITE_FILE;
    if (sqliteFile) rmSync(dirname(sqliteFile), { recursive: true, force: true });
  }
}

console.log(
  [
    "| Engine | Rows | Baseline: plain bulk insert | Import (read, judge, write) | Dry run on the filled list | Import with double opt-in (+ confirmations queued) |",
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n"),
);
