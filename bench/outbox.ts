/**
 * `npm run bench:outbox`: the site beside a mail backlog. For each engine
 * (SQLite; PostgreSQL too when TEST_DATABASE_URL or --database-url names a
 * server), a real server process delivers its outbox to a local SMTP sink,
 * first with an empty outbox, then with BACKLOG (100,000) bulk messages queued.
 * Each time, one inquiry goes through POST /api/v1/send-comment and the time
 * until the sink receives its notification is taken; then the mail rate is
 * counted alone and under autocannon measuring /healthz at a steady rate (so
 * its latency shows what the sender costs the site, not autocannon's own
 * queue). Prints a Markdown table for docs/benchmarks.md.
 * Targets: notification within 5 s and /healthz p99 under 10 ms
 * with the backlog queued.
 */
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { type DatabaseHandle, openDatabase } from "../src/server/platform/db/connection.ts";
import { migrateToLatest } from "../src/server/platform/db/migrations.ts";
import type { MailMessage } from "../src/server/platform/outbox/message.ts";
import { enqueueMails, inOutboxTransaction } from "../src/server/platform/outbox/queue.ts";
import type { TestDatabase } from "../test/support/engines.ts";
import { VALID_INQUIRY } from "../test/support/fixtures.ts";
import { clientFor, type ServerProcess, startServer } from "../test/support/server-process.ts";
import { startSmtpSink } from "./support/smtp-sink.ts";

const { values: args } = parseArgs({ options: { "database-url": { type: "string" } } });
if (args["database-url"]) process.env.TEST_DATABASE_URL = args["database-url"];
// Read after the option is applied: the engine list depends on TEST_DATABASE_URL.
const { ENGINES } = await import("../test/support/engines.ts");

const BACKLOG = Number(process.env.BACKLOG ?? 100_000);
// Two steady connections: autocannon fires the requests of many rate-limited
// connections in bursts, which alone puts its p99 at 10-25 ms against a bare server.
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 2);
const RATE_PER_CONNECTION = Number(process.env.RATE_PER_CONNECTION ?? 250);
const SECONDS = Number(process.env.SECONDS ?? 10);
const IDLE_SECONDS = 3;
const MESSAGES_PER_TRANSACTION = 5_000;
const NOTIFICATION_TIMEOUT_MS = 60_000;
const INQUIRY_TO = "inbox@firm.example";

/** The sink, noting when the inquiry's notification arrives. */
async function startSink() {
  let notifiedAt: number | undefined;
  const sink = await startSmtpSink((recipients) => {
    if (recipients.includes(INQUIRY_TO)) notifiedAt = performance.now();
  });
  return {
    ...sink,
    notifiedAt: () => notifiedAt,
    forget() {
      notifiedAt = undefined;
    },
  };
}
type Sink = Awaited<ReturnType<typeof startSink>>;

function newsletter(index: number): MailMessage {
  return {
    messageId: `<bench-${index}@firm.example>`,
    from: '"Meridian Consulting Group" <news@firm.example>',
    to: `reader${index}@example.com`,
    subject: "Our autumn newsletter",
    text: "Notes from the quarter. ".repeat(40),
    html: `<p>${"Notes from the quarter. ".repeat(80)}</p>`,
    headers: { "List-Unsubscribe": `<https://firm.example/unsubscribe?token=${index}>` },
  };
}

/** Queues the backlog as the newsletter will: bulk, many rows per statement. */
async function queueBacklog(database: DatabaseHandle): Promise<number> {
  const started = performance.now();
  for (let start = 0; start < BACKLOG; start += MESSAGES_PER_TRANSACTION) {
    const count = Math.min(MESSAGES_PER_TRANSACTION, BACKLOG - start);
    const messages = Array.from({ length: count }, (_, i) => newsletter(start + i));
    await inOutboxTransaction(
      database.db,
      (trx) => enqueueMails(trx, "newsletter", messages, { priority: "bulk" }),
      () => {},
    );
  }
  return performance.now() - started;
}

async function until<T>(check: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined || performance.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

interface Figures {
  notificationMs: number | undefined;
  p50: number;
  p99: number;
  max: number;
  rps: number;
  errors: number;
  mailPerSecondIdle: number;
  mailPerSecondUnderLoad: number;
}

/** Messages the sink accepts per second while `during` runs. */
async function mailRate<T>(sink: Sink, during: () => Promise<T>): Promise<[number, T]> {
  const [accepted, started] = [sink.accepted(), performance.now()];
  const result = await during();
  return [(sink.accepted() - accepted) / ((performance.now() - started) / 1000), result];
}

async function measure(server: ServerProcess, sink: Sink): Promise<Figures> {
  sink.forget();
  const client = await clientFor(server.origin);
  const sent = performance.now();
  const answer = await client.post("/api/v1/send-comment", VALID_INQUIRY);
  if (!answer.ok) throw new Error(`the inquiry was refused: ${answer.status}`);
  const notifiedAt = await until(sink.notifiedAt, NOTIFICATION_TIMEOUT_MS);

  const [mailPerSecondIdle] = await mailRate(
    sink,
    () => new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000)),
  );
  const [mailPerSecondUnderLoad, load] = await mailRate(sink, () =>
    autocannon({
      url: `${server.origin}/healthz`,
      connections: CONNECTIONS,
      connectionRate: RATE_PER_CONNECTION,
      duration: SECONDS,
    }),
  );
  return {
    notificationMs: notifiedAt === undefined ? undefined : notifiedAt - sent,
    p50: load.latency.p50,
    p99: load.latency.p99,
    max: load.latency.max,
    rps: load.requests.average,
    errors: load.errors + load.non2xx,
    mailPerSecondIdle,
    mailPerSecondUnderLoad,
  };
}

async function run(env: Record<string, string>, sink: Sink, warmUp: boolean): Promise<Figures> {
  // Production defaults otherwise, logging each message sent at info level.
  const server = await startServer({ ...env, SMTP_URL: sink.url, INQUIRY_TO });
  try {
    // Let the sender get well into the backlog before the inquiry arrives.
    if (warmUp) await until(() => (sink.accepted() >= 200 ? true : undefined), 30_000);
    return await measure(server, sink);
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
  }
}

/** autocannon counts whole milliseconds. */
const ms = (value: number) => (value < 1 ? "< 1 ms" : `${value} ms`);

function row(engine: string, outbox: string, figures: Figures): string {
  const notification =
    figures.notificationMs === undefined
      ? `> ${NOTIFICATION_TIMEOUT_MS / 1000} s`
      : `${(figures.notificationMs / 1000).toFixed(2)} s`;
  return `| ${engine} | ${outbox} | ${notification} | ${ms(figures.p50)} | ${ms(figures.p99)} | ${ms(figures.max)} | ${Math.round(figures.rps)} | ${figures.errors} | ${Math.round(figures.mailPerSecondIdle)} | ${Math.round(figures.mailPerSecondUnderLoad)} |`;
}

const sink = await startSink();
const rows: string[] = [];
try {
  for (const engine of ENGINES) {
    const testDb: TestDatabase = await engine.create();
    const database = openDatabase({
      databaseUrl: testDb.env.DATABASE_URL,
      sqliteFile: testDb.env.SQLITE_FILE ?? ":memory:",
    });
    try {
      await migrateToLatest(database.db, database.engine);
      rows.push(row(engine.engine, "empty", await run(testDb.env, sink, false)));
      console.error(`${engine.engine}: measured with an empty outbox`);
      const queueMs = await queueBacklog(database);
      console.error(
        `${engine.engine}: queued ${BACKLOG} bulk messages in ${Math.round(queueMs)} ms`,
      );
      const backlog = `${BACKLOG.toLocaleString("en")} bulk`;
      rows.push(row(engine.engine, backlog, await run(testDb.env, sink, true)));
      console.error(`${engine.engine}: measured with the backlog`);
    } finally {
      await database.db.destroy();
      await testDb.drop();
      // The SQLite file holds the whole backlog, about 400 MB.
      const file = testDb.env.SQLITE_FILE;
      if (file) rmSync(dirname(file), { recursive: true, force: true });
    }
  }
} finally {
  await sink.close();
}

console.log(
  `/healthz under autocannon: ${CONNECTIONS} connections at ${RATE_PER_CONNECTION} req/s each, for ${SECONDS} s, after one inquiry and ${IDLE_SECONDS} s without load; mail delivered over SMTP to a local sink.\n`,
);
console.log(
  "| Engine | Outbox | Inquiry → notification | /healthz p50 | p99 | max | req/s | errors | mail/s alone | mail/s under load |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|");
for (const line of rows) console.log(line);
