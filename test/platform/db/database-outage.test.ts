/**
 * A PostgreSQL connection that drops (an administrator's terminate, a
 * restart, a fail-over, an idle time-out, a proxy's reset) costs the requests
 * that were using it, never the process: the pool logs the loss and opens a
 * new connection when one is next needed. Requests made while the database
 * is away get a JSON error, and the server answers again once it is back.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_UNREACHABLE_MESSAGE } from "../../../src/server/platform/ops/health.ts";
import { DATABASE_UNAVAILABLE_MESSAGE } from "../../../src/server/platform/security/errors.ts";
import { pollUntil } from "../../support/answer-poll.ts";
import {
  ENGINES,
  POSTGRES_SKIP_REASON,
  POSTGRES_URL,
  type TestDatabase,
} from "../../support/engines.ts";
import { clientFor, type ServerProcess, startServer } from "../../support/server-process.ts";

const run = promisify(execFile);
const postgres = ENGINES.find((engine) => engine.engine === "postgres");
if (!postgres) console.warn(POSTGRES_SKIP_REASON);

/** How long the server may take to answer again once the database is back. */
const RECOVERY_MS = 5_000;
const LOAD_REQUESTS = 120;
const LOAD_CONCURRENCY = 6;

/** The server's connections carry this name, so the test ends only them. */
function named(databaseUrl: string, applicationName: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set("application_name", applicationName);
  return url.toString();
}

const subscribePath = () =>
  `/api/v1/subscribe?emailId=${encodeURIComponent(`load-${randomBytes(4).toString("hex")}@example.com`)}`;

/** What a request of the load came back with: a status and its body, or why there was none. */
type Outcome = { status: number; body: unknown } | { failed: string };

/**
 * A bounded load of subscriptions and readiness checks, a few at a time;
 * `progressed` resolves once a quarter of it is answered.
 */
function load(server: ServerProcess) {
  const outcomes: Outcome[] = [];
  let reachedQuarter = () => {};
  const progressed = new Promise<void>((resolve) => {
    reachedQuarter = resolve;
  });
  const finished = (async () => {
    const client = await clientFor(server.origin);
    let next = 0;
    async function worker() {
      while (next < LOAD_REQUESTS) {
        next += 1;
        const request =
          next % 2 === 0 ? client.post(subscribePath()) : fetch(`${server.origin}/readyz`);
        outcomes.push(
          await request.then(
            async (response) => ({ status: response.status, body: await response.json() }),
            (error: Error) => ({ failed: `${error.message} (${String(error.cause)})` }),
          ),
        );
        if (outcomes.length >= LOAD_REQUESTS / 4) reachedQuarter();
      }
    }
    await Promise.all(Array.from({ length: LOAD_CONCURRENCY }, worker));
    return outcomes;
  })();
  return { progressed, finished };
}

/** Answers a server gives: what it did, or its JSON refusal while the database was away. */
const ACCEPTABLE_ANSWERS = [
  { status: 200, body: { status: "ready", version: expect.any(String) } },
  { status: 201, body: expect.anything() },
  { status: 503, body: { message: DATABASE_UNREACHABLE_MESSAGE } },
  { status: 503, body: { message: DATABASE_UNAVAILABLE_MESSAGE } },
];

function expectOnlyAcceptableAnswers(outcomes: Outcome[]) {
  const unacceptable = outcomes.filter(
    (outcome) =>
      !ACCEPTABLE_ANSWERS.some((answer) => {
        try {
          expect(outcome).toEqual(answer);
          return true;
        } catch {
          return false;
        }
      }),
  );
  expect(unacceptable).toEqual([]);
}

describe.skipIf(!postgres)("server connections terminated on PostgreSQL", () => {
  let testDb: TestDatabase;
  let server: ServerProcess;
  const applicationName = `outage-${randomBytes(6).toString("hex")}`;
  beforeAll(async () => {
    testDb = (await postgres?.create()) as TestDatabase;
    server = await startServer({
      DATABASE_URL: named(testDb.env.DATABASE_URL ?? "", applicationName),
      RATE_LIMIT_PER_MINUTE: String(LOAD_REQUESTS),
    });
  });
  afterAll(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
    await testDb?.drop();
  });

  it("keeps the process up under load and answers from new connections within seconds", async () => {
    const running = load(server);
    await running.progressed;

    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ ended: string }>(
        "select count(pg_terminate_backend(pid)) as ended from pg_stat_activity where application_name = $1",
        [applicationName],
      );
      expect(Number(rows[0]?.ended)).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }

    const outcomes = await running.finished;
    expect(server.child.exitCode).toBeNull();
    expectOnlyAcceptableAnswers(outcomes);
    await pollUntil(server.origin, "/readyz", 200, RECOVERY_MS);
    const client = await clientFor(server.origin);
    expect((await client.post(subscribePath())).status).toBe(201);
    await server.logged((line) => line.msg === "database connection lost" && line.level === 40);
  });
});

/** The newest PostgreSQL server binaries installed the Debian way, if any. */
function postgresBinaries(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  return readdirSync(root)
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => join(root, version, "bin"))
    .find((bin) => existsSync(join(bin, "initdb")) && existsSync(join(bin, "pg_ctl")));
}

const BINARIES = postgresBinaries();
const AS_ROOT = process.getuid?.() === 0;
if (!BINARIES) {
  console.warn("PostgreSQL restart test skipped: no initdb and pg_ctl under /usr/lib/postgresql");
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return typeof address === "object" && address ? address.port : 0;
}

/** A PostgreSQL cluster of the test's own, in a temporary folder. */
async function ownCluster(bin: string) {
  const dir = mkdtempSync(join(tmpdir(), "pg-cluster-"));
  const data = join(dir, "data");
  const port = await freePort();
  // PostgreSQL refuses to run as root: as root, its tools run as postgres.
  if (AS_ROOT) {
    const [uid, gid] = await Promise.all(
      ["-u", "-g"].map(async (flag) => Number((await run("id", [flag, "postgres"])).stdout)),
    );
    chownSync(dir, uid as number, gid as number);
  }
  const tool = (name: string, args: string[]) =>
    AS_ROOT
      ? run("runuser", ["-u", "postgres", "--", join(bin, name), ...args])
      : run(join(bin, name), args);
  const pgCtl = (...args: string[]) =>
    tool("pg_ctl", [
      "-D",
      data,
      "-l",
      join(dir, "log"),
      "-w",
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      ...args,
    ]);
  await tool("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  await pgCtl("start");
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => pgCtl("-m", "fast", "stop"),
    start: () => pgCtl("start"),
    async remove() {
      await pgCtl("-m", "immediate", "stop").catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.skipIf(!BINARIES)("a PostgreSQL restart under a server", () => {
  let cluster: Awaited<ReturnType<typeof ownCluster>>;
  let server: ServerProcess;
  beforeAll(async () => {
    cluster = await ownCluster(BINARIES as string);
    server = await startServer({ DATABASE_URL: cluster.url });
  });
  afterAll(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
    await cluster?.remove();
  });

  it("answers a JSON error while the database is down, and serves again once it is up", async () => {
    const client = await clientFor(server.origin);
    expect((await client.post(subscribePath())).status).toBe(201);

    await cluster.stop();
    const ready = await fetch(`${server.origin}/readyz`);
    expect({ status: ready.status, body: await ready.json() }).toEqual({
      status: 503,
      body: { message: DATABASE_UNREACHABLE_MESSAGE },
    });
    const write = await client.post(subscribePath());
    expect({
      status: write.status,
      retryAfter: write.headers.get("retry-after"),
      body: await write.json(),
    }).toEqual({
      status: 503,
      retryAfter: "5",
      body: { message: DATABASE_UNAVAILABLE_MESSAGE },
    });

    await cluster.start();
    await pollUntil(server.origin, "/readyz", 200, RECOVERY_MS);
    expect((await client.post(subscribePath())).status).toBe(201);
    expect(server.child.exitCode).toBeNull();
  });
});
