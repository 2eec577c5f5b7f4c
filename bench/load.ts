/**
 * `npm run bench:load`: the built server under mixed load
 * (bench/support/load-generator.ts), on SQLite and, when a PostgreSQL URL is
 * given (--database-url, BENCH_DATABASE_URL or TEST_DATABASE_URL), on a fresh
 * schema of it. Per engine two runs on fresh databases: steady load, then the
 * same load with KILLS `kill -9` of the server at random moments, each
 * followed by a restart on the same database while the generator goes on.
 * After each run the generator's record of acknowledged writes is checked one
 * by one against the database (target: nothing acknowledged is lost).
 *
 * To explain slow requests it also notes, per run: every request over 1 s
 * (when, what, and whether it had to open its connection), the server's
 * longest event-loop delay and GC pause per second (server-probe.mjs), the
 * generator's own event-loop delay, and the kernel's count of connections
 * dropped because a listen queue was full (ListenOverflows, machine-wide).
 * Prints Markdown tables for docs/benchmarks.md.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { openDatabase } from "../src/server/platform/db/connection.ts";
import { acknowledgedButLost, type Losses } from "./support/acknowledged.ts";
import { percentile } from "./support/latency-sampler.ts";
import { type LoadRecord, runLoad, SLOW_MS } from "./support/load-generator.ts";
import { LoadServer } from "./support/load-server.ts";

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "60" },
    connections: { type: "string", default: "200" },
    kills: { type: "string", default: "3" },
    "database-url": { type: "string" },
  },
});
const SECONDS = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const KILLS = Number(args.kills);
for (const [name, value] of Object.entries({ SECONDS, CONNECTIONS, KILLS })) {
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number`);
}
const postgresUrl =
  args["database-url"] ?? process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (postgresUrl) process.env.TEST_DATABASE_URL = postgresUrl;
// Read after the URL is applied: the engine list depends on TEST_DATABASE_URL.
const { ENGINES } = await import("../test/support/engines.ts");

const BUILT_ENTRY = "build/node/src/server/main.js";
/** Kills fall within this share of the run, so each restart is followed by load. */
const KILL_WINDOW = [0.1, 0.85] as const;
/** How late a planned kill may still come, when the restart before it was slow. */
const RESTART_GRACE_MS = 5_000;

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

/**
 * Builds (under the shared lock) when build/ is missing. An older build is
 * only named: in a checkout others edit, src/ may not build at this moment.
 */
function ensureBuilt(): void {
  if (!existsSync(BUILT_ENTRY)) {
    console.error("build/ is missing: building");
    execFileSync("flock", ["/tmp/build.lock", "npm", "run", "build"], { stdio: "inherit" });
  } else if (statSync(BUILT_ENTRY).mtimeMs < newestSource("src")) {
    console.error("note: src/ changed after the last build; run `npm run build` to measure it");
  }
}

/**
 * The kernel's TCP counters (machine-wide): ListenOverflows and ListenDrops
 * count connections dropped on a full accept queue, TCPSynRetrans the
 * connection attempts a client had to repeat (after 1 s, then 2 s more...).
 */
function tcpCounters(): Map<string, number> {
  const counters = new Map<string, number>();
  for (const file of ["/proc/net/netstat", "/proc/net/snmp"]) {
    const lines = readFileSync(file, "utf8").trim().split("\n");
    for (let index = 0; index + 1 < lines.length; index += 2) {
      const names = lines[index]?.split(/\s+/) ?? [];
      const values = lines[index + 1]?.split(/\s+/) ?? [];
      const group = names[0] ?? "";
      names.slice(1).forEach((name, at) => {
        counters.set(`${group}${name}`, Number(values[at + 1]));
      });
    }
  }
  return counters;
}

function tcpChanges(before: Map<string, number>): Map<string, number> {
  const changes = new Map<string, number>();
  for (const [name, value] of tcpCounters()) {
    const change = value - (before.get(name) ?? 0);
    if (change !== 0) changes.set(name, change);
  }
  return changes;
}

interface ProbeSecond {
  at: number;
  loopMaxMs: number;
  gcMaxMs: number;
}

function probeSeconds(file: string): ProbeSecond[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ProbeSecond);
}

interface RunResult {
  engine: string;
  run: string;
  record: LoadRecord;
  /** Opening the connections and taking their tokens, before the measured load. */
  warmUp: LoadRecord;
  peakRssMiB: number;
  losses: Losses;
  killsAt: number[];
  serverLoopMaxMs: number;
  serverGcMaxMs: number;
  generatorLoopMaxMs: number;
  tcp: Map<string, number>;
}

function killMoments(count: number): number[] {
  const [from, to] = KILL_WINDOW;
  return Array.from({ length: count }, () => (from + Math.random() * (to - from)) * SECONDS).sort(
    (a, b) => a - b,
  );
}

async function run(engineName: string, kills: number): Promise<RunResult> {
  const engine = ENGINES.find((candidate) => candidate.engine === engineName);
  if (!engine) throw new Error(`no engine ${engineName}`);
  const database = await engine.create();
  const dir = mkdtempSync(join(tmpdir(), `bench-load-${engineName}-`));
  const server = await LoadServer.start({ databaseEnv: database.env, dir });
  const generatorLoop = monitorEventLoopDelay({ resolution: 10 });
  const tcpBefore = tcpCounters();
  const killsAt = killMoments(kills);
  let crashes = Promise.resolve();
  let killed = 0;
  try {
    generatorLoop.enable();
    const runId = `${engineName}-${kills}-${Date.now().toString(36)}`;
    let loadStarted = (_at: number) => {};
    const started = new Promise<number>((resolve) => {
      loadStarted = resolve;
    });
    const load = runLoad({
      origin: server.origin,
      connections: CONNECTIONS,
      seconds: SECONDS,
      runId,
      onStart: () => loadStarted(Date.now()),
    });
    crashes = (async () => {
      const loadStartedAt = await started;
      for (const at of killsAt) {
        // A slow restart may push the next kill past the end: no kill without load after it.
        if (Date.now() > loadStartedAt + at * 1000 + RESTART_GRACE_MS) break;
        const wait = loadStartedAt + at * 1000 - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        await server.crash();
        const when = ((Date.now() - loadStartedAt) / 1000).toFixed(1);
        console.error(`${engineName}: killed the server at ${when} s`);
        await server.launch();
        killed += 1;
      }
    })();
    const record = await load;
    await crashes;
    generatorLoop.disable();
    const tcp = tcpChanges(tcpBefore);
    await server.close();

    const handle = openDatabase({
      databaseUrl: database.env.DATABASE_URL,
      sqliteFile: database.env.SQLITE_FILE ?? ":memory:",
    });
    try {
      const losses = await acknowledgedButLost(handle, record);
      const probe = probeSeconds(server.probeFile);
      return {
        engine: engineName,
        run: kills === 0 ? "steady" : `${killed} × kill -9`,
        record,
        warmUp: record.warmUp,
        peakRssMiB: server.peakRssMiB,
        losses,
        killsAt,
        serverLoopMaxMs: Math.max(0, ...probe.map((second) => second.loopMaxMs)),
        serverGcMaxMs: Math.max(0, ...probe.map((second) => second.gcMaxMs)),
        generatorLoopMaxMs: generatorLoop.max / 1e6,
        tcp,
      };
    } finally {
      await handle.db.destroy();
    }
  } finally {
    await crashes.catch(() => {});
    await server.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const ms = (value: number) =>
  value >= 1000
    ? `${(value / 1000).toFixed(2)} s`
    : `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;

const counts = (map: Map<string | number, number>) =>
  [...map].map(([key, count]) => `${count} × ${key}`).join(", ") || "0";

function resultRow(result: RunResult): string {
  const { record, losses } = result;
  const sorted = record.latencies.slice().sort();
  const answered = sorted.length;
  const non2xx = new Map([...record.statuses].filter(([status]) => status < 200 || status >= 300));
  const writes = record.subscribed.length + record.inquiries.length;
  const lost = losses.subscriptions.length + losses.inquiries.length;
  return `| ${result.engine} | ${result.run} | ${Math.round(answered / record.seconds)} | ${ms(percentile(sorted, 0.5))} | ${ms(percentile(sorted, 0.99))} | ${ms(sorted[answered - 1] ?? 0)} | ${counts(non2xx)} | ${counts(record.socketErrors)} | ${Math.round(result.peakRssMiB)} MiB | ${writes} (${record.subscribed.length} + ${record.inquiries.length}) | ${lost} |`;
}

/** Latency bands: where the slow requests fall. */
const BANDS = [10, 100, 1000, 2000, 5000];

function spikeRow(result: RunResult): string {
  const { record } = result;
  const bands = BANDS.map((limit, index) => {
    const floor = BANDS[index - 1] ?? 0;
    return record.latencies.filter((value) => value >= floor && value < limit).length;
  });
  const beyond = record.latencies.filter((value) => value >= (BANDS.at(-1) ?? 0)).length;
  const onNewConnection = record.slow.filter((slow) => !slow.reusedSocket).length;
  const firstAnswers = result.warmUp.latencies;
  const opening = `${result.warmUp.seconds.toFixed(2)} s, slowest ${ms(Math.max(0, ...firstAnswers))}`;
  return `| ${result.engine} | ${result.run} | ${opening} | ${[...bands, beyond].join(" / ")} | ${record.slow.length} (${onNewConnection} on a new connection) | ${ms(result.serverLoopMaxMs)} | ${ms(result.serverGcMaxMs)} | ${ms(result.generatorLoopMaxMs)} | ${result.tcp.get("TcpExt:ListenOverflows") ?? 0} | ${result.tcp.get("TcpExt:TCPSynRetrans") ?? 0} |`;
}

ensureBuilt();
const results: RunResult[] = [];
for (const engine of ENGINES) {
  for (const kills of [0, KILLS]) {
    const result = await run(engine.engine, kills);
    results.push(result);
    console.error(`${engine.engine}: ${result.run} done`);
    for (const slow of result.record.slow) {
      console.error(
        `  slow: ${ms(slow.ms)} ${slow.kind} at ${(slow.at / 1000).toFixed(1)} s${slow.reusedSocket ? "" : " (new connection)"}`,
      );
    }
    console.error(`  TCP counters moved: ${counts(result.tcp)}`);
    if (result.killsAt.length > 0) {
      console.error(
        `  kills planned at ${result.killsAt.map((at) => `${at.toFixed(1)} s`).join(", ")}`,
      );
    }
  }
}

console.log(
  `${CONNECTIONS} connections, ${SECONDS} s per run, ${new Date().toISOString().slice(0, 10)}; load generator and server share the machine's ${availableParallelism()} cores.\n`,
);
console.log(
  "| Engine | Run | req/s | p50 | p99 | max | non-2xx | socket errors | peak RSS | acknowledged writes (subscribes + inquiries) | acknowledged but lost |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
for (const result of results) console.log(resultRow(result));
console.log(
  `\n| Engine | Run | connections opened in | requests < 10 ms / < 100 ms / < 1 s / < 2 s / < 5 s / ≥ 5 s | over ${SLOW_MS / 1000} s | server event-loop delay, max | server GC pause, max | generator event-loop delay, max | listen-queue overflows | SYN retransmits |`,
);
console.log("|---|---|---|---|---|---|---|---|---|---|");
for (const result of results) console.log(spikeRow(result));
