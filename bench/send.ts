/**
 * `npm run bench:send`: an Insight issue sent to
 * SUBSCRIBERS (100,000) active, confirmed subscribers. Needs `npm run build`
 * first: it runs the built server (build/node/src/server/main.js).
 *
 * For each engine (SQLite; PostgreSQL too when TEST_DATABASE_URL or
 * --database-url names a server) on a fresh database: seeds the subscribers
 * (timed), makes an editor account, starts the built server with production
 * defaults (bench/support/load-server.ts) delivering over SMTP to a local sink
 * at NEWSLETTER_RATE_PER_SECOND=RATE (500), signs in over HTTP, writes an
 * issue and sends it. Then, while the server queues and sends, it asks
 * every POLL_MS (100) for the issue's detail (the progress the console
 * polls) and for /healthz, and notes when the detail first says
 * `queuedAll`. After WINDOW_SECONDS (25) of sending past that moment it
 * pauses and cancels the send through the API (timed), rather than waiting
 * minutes for every copy, and stops the server with SIGTERM. With
 * WINDOW_SECONDS=all it instead waits until the detail says the send has
 * finished (every copy sent, failed or withdrawn), and neither pauses nor
 * cancels.
 *
 * Figures: seeding time; send request → every copy queued (target under
 * 30 s); the server's peak resident set (VmHWM, a high-water mark, so no
 * sample misses the peak), before the send and at the end; the sink's
 * messages per second, the mean over the window and the most in any 1-s
 * bucket since the send (target: never more than RATE_TOLERANCE over the
 * rate; each second's count goes to stderr); the latencies of both polls, and of the pause and of the cancel a
 * second later (each asked again after the Retry-After the server gives
 * while it sheds load with 503, as an editor would click again). Prints a
 * Markdown table for docs/benchmarks.md.
 *
 * Bounces (BOUNCE_EVERY, 50: one reader in fifty, 2 %): with Debian's
 * Postfix and Dovecot installed, each engine's server reads a bounce
 * mailbox of its own (test/support/mail-servers.ts), and every copy the
 * sink takes for a reader numbered a multiple of BOUNCE_EVERY comes back as
 * a DSN appended to that mailbox, addressed to the copy's own bounce
 * address (bench/support/bounce-reports.ts). After the cancel the benchmark
 * waits until each reported address is suppressed (target: within 10 s of
 * its report's arrival) and gives the delays.
 *
 * BENCH_ENGINES=postgres (or sqlite) measures that engine only.
 *
 * `npm run bench:send -- --seed-only` only seeds the subscribers, into
 * the site's own database (DATABASE_URL, else SQLITE_FILE or data/site.db),
 * for trying a large send by hand. `--skip-analyze` leaves a freshly seeded
 * PostgreSQL table without statistics (see `seed`).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { type DatabaseHandle, openDatabase } from "../src/server/platform/db/connection.ts";
import { migrateToLatest } from "../src/server/platform/db/migrations.ts";
import { loadConfig } from "../src/server/settings.ts";
import { type IssueDetail, NEWSLETTER_PATHS } from "../src/shared/admin/newsletter.ts";
import { createAccount } from "../test/support/console.ts";
import type { EngineCase } from "../test/support/engines.ts";
import { type MailServers, startMailServers } from "../test/support/mail-servers.ts";
import { addSubscribers, newsletterDraft } from "../test/support/newsletter.ts";
import { type BounceFigures, startBounceReports } from "./support/bounce-reports.ts";
import { type ConsoleSession, signInOverHttp } from "./support/console-session.ts";
import { percentile, type Sample, sampleEvery } from "./support/latency-sampler.ts";
import { LoadServer } from "./support/load-server.ts";
import { type SmtpSink, startSmtpSink } from "./support/smtp-sink.ts";

const { values: args } = parseArgs({
  options: {
    "database-url": { type: "string" },
    "seed-only": { type: "boolean" },
    "skip-analyze": { type: "boolean" },
  },
});
if (args["database-url"]) process.env.TEST_DATABASE_URL = args["database-url"];

const SUBSCRIBERS = Number(process.env.SUBSCRIBERS ?? 100_000);
const RATE = Number(process.env.RATE ?? 500);
/** WINDOW_SECONDS=all: the whole send, to its last copy. */
const WHOLE_SEND = process.env.WINDOW_SECONDS === "all";
const WINDOW_SECONDS = WHOLE_SEND ? 0 : Number(process.env.WINDOW_SECONDS ?? 25);
const QUEUE_TIMEOUT_SECONDS = Number(process.env.QUEUE_TIMEOUT_SECONDS ?? 180);
/** How long a whole send may take: 100,000 copies at 100/s, and some. */
const SEND_TIMEOUT_SECONDS = Number(process.env.SEND_TIMEOUT_SECONDS ?? 1800);
/** How far over the rate a 1-s bucket may go: the sender claims up to ten due copies at once. */
const RATE_TOLERANCE = 0.05;
const QUEUE_TARGET_SECONDS = 30;
/** The console itself polls every 1.5 s; 100 ms samples its latency finely, at some cost to the send. */
const POLL_INTERVAL_MS = Number(process.env.POLL_MS ?? 100);
/** The dispatcher also wakes on "send now"; a short poll only matters after a restart. */
const OUTBOX_POLL_MS = 200;
/** How often the server's resident set is noted during the send: flat means bounded. */
const RSS_EVERY_MS = 30_000;
/** 503s an action may meet before the benchmark gives up. */
const MAX_REFUSALS = 5;
/** Between the pause and the cancel: an editor's second click. */
const THINK_MS = 1000;
const BUILT_ENTRY = "build/node/src/server/main.js";
/** One reader in this many has a mailbox that no longer exists; 0 sends no bounces. */
const BOUNCE_EVERY = Number(process.env.BOUNCE_EVERY ?? 50);
const SUPPRESSION_TARGET_MS = 10_000;
/** How long after the cancel the last reports may take to be read. */
const BOUNCE_WAIT_MS = 30_000;
const EDITOR = "editor@firm.example";

/**
 * Makes `SUBSCRIBERS` active, confirmed subscriptions; returns the milliseconds
 * it took. On PostgreSQL it then gathers the table's statistics, as autovacuum
 * does within a minute or so of a bulk load: without them the planner reads
 * the whole table and sorts it for each batch of 500 the send queues
 * (17-53 ms a batch instead of 0.1 ms), which --skip-analyze shows.
 */
async function seed(database: DatabaseHandle, prefix: string): Promise<number> {
  const started = performance.now();
  await addSubscribers(database, prefix, SUBSCRIBERS);
  if (database.engine === "postgres" && !args["skip-analyze"]) {
    await sql`analyze subscriptions`.execute(database.db);
  }
  return performance.now() - started;
}

async function seedOnly(): Promise<void> {
  const config = loadConfig();
  const database = openDatabase({
    databaseUrl: config.DATABASE_URL,
    sqliteFile: config.SQLITE_FILE,
  });
  try {
    await migrateToLatest(database.db, database.engine);
    // A fresh prefix each time: addresses are unique, and the seed may run twice.
    const prefix = `reader-${Date.now().toString(36)}`;
    const ms = await seed(database, prefix);
    console.log(
      `seeded ${SUBSCRIBERS} confirmed subscribers (${prefix}-*@example.com) into the ${database.engine} database in ${(ms / 1000).toFixed(1)} s`,
    );
  } finally {
    await database.db.destroy();
  }
}

interface Latencies {
  p50: number;
  p99: number;
  max: number;
  /** Answers other than 200, and requests with no answer. */
  failed: number;
}

function latencies(samples: Sample[]): Latencies {
  const sorted = Float64Array.from(samples, (sample) => sample.ms).sort();
  return {
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? 0,
    failed: samples.filter((sample) => sample.status !== 200).length,
  };
}

/** Arrivals in each second from `from` to `to`. */
function countsPerSecond(arrivals: number[], from: number, to: number): number[] {
  const counts = new Array<number>(Math.ceil((to - from) / 1000)).fill(0);
  for (const at of arrivals) {
    const second = Math.floor((at - from) / 1000);
    if (second >= 0 && second < counts.length) counts[second] = (counts[second] ?? 0) + 1;
  }
  return counts;
}

const perSecond = (arrivals: number[], from: number, to: number) =>
  arrivals.filter((at) => at >= from && at < to).length / ((to - from) / 1000);

interface Figures {
  engine: string;
  seedMs: number;
  /** Undefined when the send was not all queued within QUEUE_TIMEOUT_SECONDS. */
  queueMs: number | undefined;
  rssBeforeMiB: number;
  peakRssMiB: number;
  ratePerSecondWhileQueuing: number;
  ratePerSecond: number;
  /** Messages the sink accepted in each second from the send request on. */
  eachSecond: number[];
  /** The server's resident set every RSS_EVERY_MS from the send request on, in MiB. */
  rssTimeline: number[];
  progress: Latencies;
  progressWhileQueuing: Latencies;
  health: Latencies;
  /** How long each took, and how many times it was refused with 503 first; undefined for a whole send. */
  pause: { ms: number; refusals: number } | undefined;
  cancel: { ms: number; refusals: number } | undefined;
  /** The issue at the end (after the cancel, or finished): what was sent, and what was withdrawn. */
  final: IssueDetail["progress"];
  /** Undefined when no bounces were sent (BOUNCE_EVERY 0, or no Postfix and Dovecot). */
  bounces: BounceFigures | undefined;
}

/** An editor's click, asked again after Retry-After while the server sheds load (503). */
async function timedAction(session: ConsoleSession, path: string) {
  const started = performance.now();
  let refusals = 0;
  for (;;) {
    const answer = await session.request("POST", path, {});
    if (answer.ok) {
      const detail = (await answer.json()) as IssueDetail;
      return { ms: performance.now() - started, refusals, detail };
    }
    if (answer.status !== 503 || refusals === MAX_REFUSALS) {
      throw new Error(`POST ${path}: ${answer.status} ${await answer.text()}`);
    }
    refusals += 1;
    const retryAfter = Number(answer.headers.get("retry-after") ?? 1);
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
  }
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check() && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Sends an issue through the server's API and measures the send (see the header). */
async function measureSend(
  server: LoadServer,
  arrivals: number[],
): Promise<Omit<Figures, "engine" | "seedMs" | "bounces">> {
  const session = await signInOverHttp(server.origin, EDITOR);
  const created = await session.request(
    "POST",
    NEWSLETTER_PATHS.list,
    newsletterDraft("bench-issue"),
  );
  if (created.status !== 201) throw new Error(`the issue was refused: ${created.status}`);
  const { id } = (await created.json()) as IssueDetail;
  const rssBeforeMiB = server.peakRssMiB;

  const sentAt = performance.now();
  let queuedAt: number | undefined;
  let finished: IssueDetail["progress"] | undefined;
  const progressPoll = sampleEvery(
    `${server.origin}${NEWSLETTER_PATHS.one(id)}`,
    POLL_INTERVAL_MS,
    {
      headers: session.headers,
      onBody(body) {
        const { progress } = JSON.parse(body) as IssueDetail;
        if (progress.queuedAll) queuedAt ??= performance.now();
        if (progress.finishedAt !== null) finished ??= progress;
      },
    },
  );
  const healthPoll = sampleEvery(`${server.origin}/healthz`, POLL_INTERVAL_MS, {});
  const rssTimeline = [server.rssMiB];
  const rssSampler = setInterval(() => rssTimeline.push(server.rssMiB), RSS_EVERY_MS);
  let windowFrom = sentAt;
  let windowTo = sentAt;
  try {
    const sent = await session.request("POST", NEWSLETTER_PATHS.send(id), {});
    if (!sent.ok) throw new Error(`the send was refused: ${sent.status} ${await sent.text()}`);
    // The answer itself may already say so, when queuing held the server until it was done.
    if (((await sent.json()) as IssueDetail).progress.queuedAll) queuedAt ??= performance.now();
    await until(() => queuedAt !== undefined, QUEUE_TIMEOUT_SECONDS * 1000);
    windowFrom = performance.now();
    if (WHOLE_SEND) {
      await until(() => finished !== undefined, SEND_TIMEOUT_SECONDS * 1000);
      if (!finished) throw new Error(`the send did not finish in ${SEND_TIMEOUT_SECONDS} s`);
    } else {
      await new Promise((resolve) => setTimeout(resolve, WINDOW_SECONDS * 1000));
    }
    windowTo = performance.now();
  } finally {
    clearInterval(rssSampler);
    rssTimeline.push(server.rssMiB);
    await Promise.all([progressPoll.stop(), healthPoll.stop()]);
  }
  const progressSamples = await progressPoll.stop();
  const queuedBy = queuedAt ?? windowFrom;
  let pause: Awaited<ReturnType<typeof timedAction>> | undefined;
  let cancel: typeof pause;
  if (!WHOLE_SEND) {
    pause = await timedAction(session, NEWSLETTER_PATHS.pause(id));
    await new Promise((resolve) => setTimeout(resolve, THINK_MS));
    cancel = await timedAction(session, NEWSLETTER_PATHS.cancel(id));
  }
  const final = cancel?.detail.progress ?? finished;
  if (!final) throw new Error("the send neither finished nor was cancelled");
  return {
    queueMs: queuedAt === undefined ? undefined : queuedAt - sentAt,
    rssBeforeMiB,
    peakRssMiB: server.peakRssMiB,
    ratePerSecondWhileQueuing: perSecond(arrivals, sentAt, queuedBy),
    ratePerSecond: perSecond(arrivals, windowFrom, windowTo),
    eachSecond: countsPerSecond(arrivals, sentAt, windowTo),
    rssTimeline,
    progress: latencies(progressSamples),
    progressWhileQueuing: latencies(progressSamples.filter((sample) => sample.at < queuedBy)),
    health: latencies(await healthPoll.stop()),
    pause,
    cancel,
    final,
  };
}

/** What the server needs to read a bounce mailbox of its own. */
function bounceEnv(servers: MailServers | null): Record<string, string> {
  if (!servers) return {};
  const { imap } = servers;
  return {
    BOUNCE_ADDRESS: `bounces@${servers.bounceDomain}`,
    BOUNCE_IMAP_URL: `imap://${imap.user}:${imap.pass}@${imap.host}:${imap.port}/INBOX`,
    BOUNCE_POLL_MS: "1000",
  };
}

/** Whether a copy to `address` bounces: readers numbered a multiple of BOUNCE_EVERY. */
function bounces(address: string): boolean {
  const n = Number(/^reader-(\d+)@/.exec(address)?.[1] ?? Number.NaN);
  return BOUNCE_EVERY > 0 && n % BOUNCE_EVERY === 0;
}

/** Starts the server on the seeded database, measures the send, and stops it. */
async function sendOn(
  database: DatabaseHandle,
  databaseEnv: Record<string, string>,
  dir: string,
  sink: SmtpSink,
  arrivals: number[],
  mailServers: MailServers | null,
  onCopy: { bounce?: (recipient: string, bounceAddress: string) => void },
): Promise<Omit<Figures, "engine" | "seedMs">> {
  const server = await LoadServer.start({
    // LoadServer puts these last in the server's environment: the database, and the send's settings.
    databaseEnv: {
      ...databaseEnv,
      SMTP_URL: sink.url,
      NEWSLETTER_RATE_PER_SECOND: String(RATE),
      OUTBOX_POLL_MS: String(OUTBOX_POLL_MS),
      ...bounceEnv(mailServers),
    },
    dir,
  });
  try {
    const reports = mailServers ? await startBounceReports(mailServers, database.db) : undefined;
    if (reports) onCopy.bounce = (recipient, from) => reports.bounce(recipient, from);
    const measured = await measureSend(server, arrivals).catch(async (error: unknown) => {
      onCopy.bounce = undefined;
      await reports?.abandon();
      throw error;
    });
    onCopy.bounce = undefined;
    const figures = { ...measured, bounces: await reports?.finish(BOUNCE_WAIT_MS) };
    const queued = await database.db
      .selectFrom("issues")
      .select(["recipients", "started_at", "queued_all_at"])
      .executeTakeFirstOrThrow();
    const iso = (time: string | Date | null) =>
      time === null ? "never" : new Date(time).toISOString();
    console.error(
      `${database.engine}: ${queued.recipients} copies queued from ${iso(queued.started_at)} to ${iso(queued.queued_all_at)} (the server's clock)`,
    );
    if (queued.recipients !== SUBSCRIBERS) {
      throw new Error(`${SUBSCRIBERS} copies should have been queued, not ${queued.recipients}`);
    }
    return figures;
  } finally {
    await server.close();
  }
}

async function measureEngine(
  engine: EngineCase,
  sink: SmtpSink,
  arrivals: number[],
  onCopy: { bounce?: (recipient: string, bounceAddress: string) => void },
): Promise<Figures> {
  const testDb = await engine.create();
  const database = openDatabase({
    databaseUrl: testDb.env.DATABASE_URL,
    sqliteFile: testDb.env.SQLITE_FILE ?? ":memory:",
  });
  const dir = mkdtempSync(join(tmpdir(), "bench-issue-"));
  try {
    await migrateToLatest(database.db, database.engine);
    const seedMs = await seed(database, "reader");
    console.error(
      `${engine.engine}: seeded ${SUBSCRIBERS} subscribers in ${Math.round(seedMs)} ms`,
    );
    await createAccount(database, "editor", EDITOR);
    // A mailbox of this engine's own: reports from the other engine's send stay there.
    const mailServers = BOUNCE_EVERY > 0 ? await startMailServers({ existing: [] }) : null;
    const figures = await sendOn(
      database,
      testDb.env,
      dir,
      sink,
      arrivals,
      mailServers,
      onCopy,
    ).finally(() => mailServers?.stop());
    rmSync(dir, { recursive: true, force: true });
    return { engine: engine.engine, seedMs, ...figures };
  } catch (error) {
    console.error(`${engine.engine}: failed; the server's log is in ${dir}`, error);
    throw error;
  } finally {
    await database.db.destroy();
    await testDb.drop();
    const file = testDb.env.SQLITE_FILE;
    if (file) rmSync(dirname(file), { recursive: true, force: true });
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const ms = (value: number) =>
  value >= 1000 ? seconds(value) : `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;
const mib = (value: number) => `${Math.round(value)} MiB`;
const spread = ({ p50, p99, max }: Latencies) => `${ms(p50)} / ${ms(p99)} / ${ms(max)}`;

function action(timed: Figures["pause"]): string {
  if (!timed) return "—";
  return timed.refusals === 0 ? ms(timed.ms) : `${ms(timed.ms)} (${timed.refusals} × 503 first)`;
}

function row(figures: Figures): string {
  const queue =
    figures.queueMs === undefined ? `> ${QUEUE_TIMEOUT_SECONDS} s` : seconds(figures.queueMs);
  const failed = figures.progress.failed + figures.health.failed;
  const bounced = figures.bounces
    ? `${figures.bounces.suppressed} of ${figures.bounces.reports} | ${spread({ ...figures.bounces, failed: 0 })}`
    : "— | —";
  return `| ${figures.engine} | ${SUBSCRIBERS.toLocaleString("en")} | ${seconds(figures.seedMs)} | ${queue} | ${mib(figures.peakRssMiB)} (${mib(figures.rssBeforeMiB)} before) | ${RATE} / ${Math.round(figures.ratePerSecond)} / ${Math.max(...figures.eachSecond)} | ${Math.round(figures.ratePerSecondWhileQueuing)} | ${spread(figures.progressWhileQueuing)} | ${spread(figures.progress)} | ${spread(figures.health)} | ${failed} | ${action(figures.pause)} / ${action(figures.cancel)} | ${bounced} |`;
}

/** The send's targets, as lines for stderr. */
function verdicts(figures: Figures): string[] {
  const ceiling = RATE * (1 + RATE_TOLERANCE);
  const queued =
    figures.queueMs !== undefined && figures.queueMs < QUEUE_TARGET_SECONDS * 1000
      ? "met"
      : "MISSED";
  const most = Math.max(...figures.eachSecond);
  const paced = most <= ceiling ? "met" : "MISSED";
  return [
    `${figures.engine}: queuing under ${QUEUE_TARGET_SECONDS} s: ${queued}`,
    `${figures.engine}: at most ${ceiling} messages in any 1-s bucket: ${paced} (${most})`,
    `${figures.engine}: messages each second from the send on: ${figures.eachSecond.join(" ")}`,
    `${figures.engine}: resident MiB every ${RSS_EVERY_MS / 1000} s from the send on: ${figures.rssTimeline.map(Math.round).join(" ")}`,
    `${figures.engine}: at the end: ${JSON.stringify(figures.final)}`,
    ...(figures.bounces
      ? [
          `${figures.engine}: every report's address suppressed within ${SUPPRESSION_TARGET_MS / 1000} s of its arrival: ${
            figures.bounces.suppressed === figures.bounces.reports &&
            figures.bounces.max <= SUPPRESSION_TARGET_MS
              ? "met"
              : "MISSED"
          } (${figures.bounces.suppressed} of ${figures.bounces.reports}, slowest ${ms(figures.bounces.max)})`,
        ]
      : []),
  ];
}

async function benchmark(): Promise<void> {
  if (!existsSync(BUILT_ENTRY)) {
    throw new Error(`${BUILT_ENTRY} is missing: run \`npm run build\` first`);
  }
  // Read after --database-url is applied: the engine list depends on TEST_DATABASE_URL.
  const { ENGINES } = await import("../test/support/engines.ts");
  const only = process.env.BENCH_ENGINES?.split(",");
  const engines = ENGINES.filter((engine) => !only || only.includes(engine.engine));
  let arrivals: number[] = [];
  const onCopy: { bounce?: (recipient: string, bounceAddress: string) => void } = {};
  const sink = await startSmtpSink((recipients, envelopeFrom) => {
    arrivals.push(performance.now());
    for (const recipient of recipients) {
      if (bounces(recipient)) onCopy.bounce?.(recipient, envelopeFrom);
    }
  });
  const results: Figures[] = [];
  try {
    for (const engine of engines) {
      arrivals = [];
      const figures = await measureEngine(engine, sink, arrivals, onCopy);
      // Shown at once, so a later engine's failure does not lose it.
      console.error(row(figures));
      for (const line of verdicts(figures)) console.error(line);
      results.push(figures);
    }
  } finally {
    await sink.close();
  }
  console.log(
    `Every ${POLL_INTERVAL_MS} ms during the send: the issue's detail (the console's progress) and /healthz; rate over ${WHOLE_SEND ? "the whole send" : `${WINDOW_SECONDS} s of sending`} after every copy was queued, max over 1-s buckets since the send.\n`,
  );
  console.log(
    "| Engine | Subscribers | Seeding | Send → all queued | Peak RSS | Rate: set / mean / max 1-s | mail/s while queuing | Progress GET p50 / p99 / max, while queuing | same, whole send | /healthz p50 / p99 / max | not 200 | Pause / cancel | Bounced addresses suppressed | Report → suppressed p50 / p99 / max |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const figures of results) console.log(row(figures));
}

if (args["seed-only"]) await seedOnly();
else await benchmark();
