/**
 * `npm run bench:import-load`: what a 40 MB subscriber import does to the
 * site's visitors. Needs `npm run build` first: it runs the built server
 * (bench/support/load-server.ts, production settings) on a fresh database,
 * SQLite and, when TEST_DATABASE_URL or --database-url names a server,
 * PostgreSQL.
 *
 * Visitors ask for `/` at RATE (200) requests a second, on a schedule
 * (bench/support/paced-visitors.ts): a busy hour for a consultancy's site,
 * well below what the server can answer, so their latency shows whether they
 * wait on the import rather than on each other. Each answer is timed from
 * the moment its request was due, so a visitor who arrives while the server
 * is stalled waits as long as the stall lasts. (Not autocannon: its closed
 * loop sends nothing into a stall, and the import that held the event loop
 * for 9 seconds moved its p99 by a tenth.)
 *
 * Per engine, after WARM_UP_SECONDS (10) of visitors unmeasured, ROUNDS
 * (3) rounds, one after the other on the same server: the
 * visitors alone for QUIET_SECONDS (15), then the visitors while an owner
 * imports a Mailchimp export of 40 MB (ROWS, 195,000 new addresses each
 * round, in its usual 22 columns) through the console's route, from the
 * first byte of the upload to the answer. The upload is curl's, in a
 * process of its own, so this process only measures the visitors. Beside
 * the visitors' p50, p99 and longest answer in each phase, the server's
 * longest event-loop delay and GC pause in it (bench/support/server-probe.mjs),
 * the visitors' own lag (how late this process sent a request that was due:
 * a loaded machine slows the measure too), and their errors (the server
 * sheds load with 503 while its event loop lags, MAX_EVENT_LOOP_DELAY_MS).
 *
 * Target: the visitors' p99 while the import runs is at most 1.5 times
 * their p99 on the quiet server (the median of the rounds' ratios). Prints
 * Markdown tables for docs/benchmarks.md.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../src/server/platform/db/connection.ts";
import { IMPORT_LIMITS, IMPORT_ROUTES } from "../src/shared/admin/subscriber-import.ts";
import { createAccount } from "../test/support/console.ts";
import type { EngineCase } from "../test/support/engines.ts";
import { signInOverHttp } from "./support/console-session.ts";
import { percentile } from "./support/latency-sampler.ts";
import { LoadServer } from "./support/load-server.ts";
import { mailchimpExport } from "./support/mailchimp-export.ts";
import { pacedVisitors, type VisitorRecord } from "./support/paced-visitors.ts";

const { values: args } = parseArgs({ options: { "database-url": { type: "string" } } });
if (args["database-url"]) process.env.TEST_DATABASE_URL = args["database-url"];
// Read after the option is applied: the engine list depends on TEST_DATABASE_URL.
const { ENGINES } = await import("../test/support/engines.ts");

const RATE = Number(process.env.RATE ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const QUIET_SECONDS = Number(process.env.QUIET_SECONDS ?? 15);
const WARM_UP_SECONDS = 10;
const ROWS = Number(process.env.ROWS ?? 195_000);
const PAGE = "/";
const TARGET_RATIO = 1.5;
const OWNER = "owner@bench.example";
const BUILT_ENTRY = "build/node/src/server/main.js";
/** Just under the import's limit, as a firm's largest file would be. */
const FILE_BYTES = IMPORT_LIMITS.maxMegabytes * 1024 * 1024 - 64 * 1024;

interface Phase extends VisitorRecord {
  from: number;
  to: number;
  loopMaxMs: number;
  gcMaxMs: number;
}

interface Round {
  quiet: Phase;
  importing: Phase;
  importSeconds: number;
  added: number;
  fileMiB: number;
}

/** A file of ROWS new addresses (of `domain`) padded to FILE_BYTES. */
function importFile(domain: string): Buffer {
  const emails = Array.from({ length: ROWS }, (_, n) => `reader-${n}@${domain}`);
  const bare = mailchimpExport(emails);
  const pad = Math.max(0, Math.floor((FILE_BYTES - bare.length) / ROWS));
  return mailchimpExport(emails, "n".repeat(pad));
}

/** Starts the visitors; stop() ends them and gives every answer's time. */
function visitors(origin: string) {
  const from = Date.now();
  const paced = pacedVisitors(`${origin}${PAGE}`, RATE);
  return {
    async stop(): Promise<Omit<Phase, "loopMaxMs" | "gcMaxMs">> {
      const to = Date.now();
      return { ...(await paced.stop()), from, to };
    },
  };
}

/**
 * The owner's upload of `fileName` to the import, as the console sends it,
 * by curl in a process of its own: sending 40 MB from this one would hold up
 * the visitors' own measurements.
 */
async function upload(
  origin: string,
  headers: Record<string, string>,
  fileName: string,
): Promise<{ added?: number; message: string }> {
  const query = new URLSearchParams({
    consentSource: "The sign-up form of the list we left",
    consentDate: "2024-06-30",
  });
  const curl = spawn(
    "curl",
    [
      "--silent",
      ...Object.entries(headers).flatMap(([name, value]) => ["--header", `${name}: ${value}`]),
      "--form",
      `file=@${fileName};type=text/csv`,
      `${origin}${IMPORT_ROUTES.run}?${query}`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let body = "";
  curl.stdout.on("data", (chunk) => {
    body += String(chunk);
  });
  const [code] = await once(curl, "exit");
  if (code !== 0) throw new Error(`curl failed with ${code}`);
  return JSON.parse(body) as { added?: number; message: string };
}

/** The server's longest event-loop delay and GC pause between `from` and `to` (epoch ms), from its probe. */
function serverPauses(server: LoadServer, from: number, to: number) {
  const seconds = existsSync(server.probeFile)
    ? readFileSync(server.probeFile, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { at: number; loopMaxMs: number; gcMaxMs: number })
        .filter((second) => second.at > from && second.at <= to + 1000)
    : [];
  return {
    loopMaxMs: Math.max(0, ...seconds.map((second) => second.loopMaxMs)),
    gcMaxMs: Math.max(0, ...seconds.map((second) => second.gcMaxMs)),
  };
}

async function measure(engine: EngineCase): Promise<Round[]> {
  const testDb = await engine.create();
  const database = openDatabase({
    databaseUrl: testDb.env.DATABASE_URL,
    sqliteFile: testDb.env.SQLITE_FILE ?? ":memory:",
  });
  const dir = mkdtempSync(join(tmpdir(), `bench-import-load-${engine.engine}-`));
  const rounds: Round[] = [];
  try {
    await createAccount(database, "owner", OWNER);
    const server = await LoadServer.start({ databaseEnv: testDb.env, dir });
    try {
      const owner = await signInOverHttp(server.origin, OWNER);
      // Visitors for a while first, unmeasured: the first phase should not
      // pay for the server's first answers, nor for the work it does as it starts.
      const warmUp = visitors(server.origin);
      await new Promise((resolve) => setTimeout(resolve, WARM_UP_SECONDS * 1000));
      await warmUp.stop();
      for (let round = 1; round <= ROUNDS; round += 1) {
        const file = importFile(`round${round}.${engine.engine}.example`);
        const calm = visitors(server.origin);
        await new Promise((resolve) => setTimeout(resolve, QUIET_SECONDS * 1000));
        const quiet = await calm.stop();

        const fileName = join(dir, `round-${round}.csv`);
        writeFileSync(fileName, file);
        const busy = visitors(server.origin);
        const started = performance.now();
        const answer = await upload(server.origin, owner.headers, fileName);
        const importSeconds = (performance.now() - started) / 1000;
        const importing = await busy.stop();
        if (!answer.added) throw new Error(`the import was refused: ${answer.message}`);
        rounds.push({
          quiet: { ...quiet, ...serverPauses(server, quiet.from, quiet.to) },
          importing: { ...importing, ...serverPauses(server, importing.from, importing.to) },
          importSeconds,
          added: answer.added,
          fileMiB: file.length / 1024 / 1024,
        });
        console.error(`${engine.engine}: round ${round} done`);
      }
    } finally {
      await server.close();
    }
    rmSync(dir, { recursive: true, force: true });
    return rounds;
  } catch (error) {
    console.error(`${engine.engine}: failed; the server's log is in ${dir}`);
    throw error;
  } finally {
    await database.db.destroy();
    await testDb.drop();
    const sqliteFile = testDb.env.SQLITE_FILE;
    if (sqliteFile) rmSync(dirname(sqliteFile), { recursive: true, force: true });
  }
}

const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;
const sorted = (values: number[]) => Float64Array.from(values).sort();
function spread(phase: Phase): string {
  const times = sorted(phase.latencies);
  return `${ms(percentile(times, 0.5))} / ${ms(percentile(times, 0.99))} / ${ms(times.at(-1) ?? 0)}`;
}
const p99 = (phase: Phase) => percentile(sorted(phase.latencies), 0.99);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

if (!existsSync(BUILT_ENTRY)) {
  throw new Error(`${BUILT_ENTRY} is missing: run \`npm run build\` first`);
}
const rows: string[] = [];
const verdicts: string[] = [];
for (const engine of ENGINES) {
  const rounds = await measure(engine);
  const ratios = rounds.map((round) => p99(round.importing) / p99(round.quiet));
  rounds.forEach((round, index) => {
    rows.push(
      `| ${engine.engine} | ${index + 1} | ${round.added.toLocaleString("en")} (${round.fileMiB.toFixed(1)} MiB) | ${round.importSeconds.toFixed(1)} s | ${spread(round.quiet)} | ${spread(round.importing)} | ${(ratios[index] ?? 0).toFixed(2)} | ${ms(round.quiet.loopMaxMs)} / ${ms(round.importing.loopMaxMs)} | ${ms(round.quiet.gcMaxMs)} / ${ms(round.importing.gcMaxMs)} | ${ms(round.quiet.sendLagMaxMs)} / ${ms(round.importing.sendLagMaxMs)} | ${round.quiet.errors + round.importing.errors} |`,
    );
  });
  const ratio = median(ratios);
  verdicts.push(
    `${engine.engine}: median p99 ratio ${ratio.toFixed(2)}, target ≤ ${TARGET_RATIO}: ${ratio <= TARGET_RATIO ? "met" : "not met"}`,
  );
}

console.log(
  `Visitors: GET ${PAGE} at ${RATE} requests/s, paced; ${ROUNDS} rounds of ${QUIET_SECONDS} s quiet, then an import of ${ROWS.toLocaleString("en")} new addresses.\n`,
);
console.log(
  "| Engine | Round | Import: added (file) | Import: upload to answer | Visitors, quiet: p50 / p99 / max | Visitors, during the import: p50 / p99 / max | p99 ratio | Server's longest event-loop delay, quiet / import | Server's longest GC pause, quiet / import | Visitors' own longest lag, quiet / import | Errors |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
console.log("");
for (const verdict of verdicts) console.log(verdict);
