/**
 * Figures no one can fake cheaply (ADR 058), against real server processes
 * sharing one database: a flood of made-up values for every dimension an
 * outsider can reach (pages and entry pages through odd request targets,
 * referrers, the three UTM tags, Insight campaigns, browsers and devices
 * through user agents) sent to two instances at once and then to one
 * restarted, lets no (day, dimension) hold more than AUDIENCE_VALUES_PER_DAY
 * values and "(other)"; and one address sending a new browser at every
 * request adds no more than AUDIENCE_VISITORS_PER_ADDRESS visitors, across
 * the instances when they share Redis, and per process when they do not.
 *
 * The servers believe the X-Forwarded-For the test sends (TRUST_PROXY), so
 * each request of the values' flood comes from an address of its own, as a
 * flood from many machines would: no address's own number stops it.
 */
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../src/server/platform/db/connection.ts";
import { openMigrated, SQLITE_ONLY, type TestDatabase } from "../../support/engines.ts";
import { REDIS_SKIP_REASON, REDIS_URL, redisEnv } from "../../support/redis.ts";
import { type ServerProcess, startServer } from "../../support/server-process.ts";

const PROCESS_TEST_MS = 120_000;
const STUB_BUILD = fileURLToPath(new URL("../../support/stub-server-build.mjs", import.meta.url));
const CAP = 4;
const VISITORS = 3;
/** Made-up values of each dimension sent to each server: more than the cap, each time. */
const FLOOD = CAP + 3;
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

if (!REDIS_URL) console.warn(REDIS_SKIP_REASON);

/**
 * A user agent whose browser name is made up, one for each `n`: ua-parser
 * names the browser after the word before "browser/", as long as the word is
 * five of these letters.
 */
function madeUpBrowser(n: number): string {
  let word = "";
  for (let rest = n, i = 0; i < 5; i += 1, rest = Math.floor(rest / 8)) {
    word += "tizenoka"[rest % 8];
  }
  return `Mozilla/5.0 (X11; Linux x86_64) ${word}browser/1.0`;
}

/** A GET of `target` exactly as written (a fragment, an encoding), from `address`. */
function get(server: ServerProcess, target: string, headers: Record<string, string>) {
  const { hostname, port } = new URL(server.origin);
  return new Promise<number>((resolve, reject) => {
    const sent = request({ host: hostname, port, path: target, headers }, (answer) => {
      answer.resume();
      answer.on("end", () => resolve(answer.statusCode ?? 0));
    });
    sent.on("error", reject);
    sent.end();
  });
}

let addresses = 0;
/** An address no request used before. */
function newAddress(): string {
  addresses += 1;
  return `198.18.${addresses >> 8}.${addresses & 255}`;
}

/** Made-up values of every dimension an outsider reaches, each request from an address of its own. */
async function floodValues(server: ServerProcess, tag: string) {
  const from = (agent = CHROME) => ({ "x-forwarded-for": newAddress(), "user-agent": agent });
  for (let i = 0; i < FLOOD; i += 1) {
    const made = `${tag}-${i}`;
    const tags = `utm_source=s-${made}&utm_medium=m-${made}&utm_campaign=c-${made}`;
    const browser = madeUpBrowser(addresses);
    const visit = { ...from(browser), referer: `https://r-${made}.example/` };
    expect(await get(server, `/weare?${tags}`, visit)).toBe(200);
    expect(await get(server, `/?utm_source=insight&utm_campaign=i-${made}`, from())).toBe(200);
    // Targets of made-up paths: each reaches a known page, or none.
    expect(await get(server, `/#${made}`, from())).toBe(200);
    expect(await get(server, `/we%61re?${made}`, from())).toBe(200);
    expect(await get(server, `/no-such-${made}`, from())).toBe(404);
  }
}

/** A new browser at every request, all from one address. */
async function floodVisitors(server: ServerProcess, address: string, first: number) {
  for (let i = first; i < first + 8; i += 1) {
    const headers = { "x-forwarded-for": address, "user-agent": madeUpBrowser(i) };
    expect(await get(server, "/weare", headers)).toBe(200);
  }
}

async function stop(...servers: ServerProcess[]) {
  for (const server of servers) server.child.kill("SIGTERM");
  // A graceful stop writes what each counted.
  expect(await Promise.all(servers.map((server) => server.exited))).toEqual(servers.map(() => 0));
}

describe.each(SQLITE_ONLY)("the audience flooded on $engine", (engine) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;

  beforeAll(async () => {
    testDb = await engine.create();
    database = await openMigrated(testDb);
  });
  afterAll(async () => {
    await database.db.destroy();
    await testDb.drop();
  });

  const env = (more: Record<string, string> = {}) => ({
    ...testDb.env,
    SERVER_BUILD: STUB_BUILD,
    // Written only when a server stops, within the test.
    AUDIENCE_FLUSH_SECONDS: "300",
    AUDIENCE_VALUES_PER_DAY: String(CAP),
    AUDIENCE_VISITORS_PER_ADDRESS: String(VISITORS),
    TRUST_PROXY: "127.0.0.1",
    ...more,
  });

  /** Each (day, dimension)'s values as stored. */
  async function storedValues() {
    const rows = await database.db
      .selectFrom("audience_days")
      .select(["day", "dimension", "value"])
      .execute();
    const byDimension = new Map<string, string[]>();
    for (const row of rows) {
      const key = `${row.day} ${row.dimension}`;
      byDimension.set(key, [...(byDimension.get(key) ?? []), row.value]);
    }
    return byDimension;
  }

  it(
    "keeps every dimension within its cap across two instances and a restart",
    async () => {
      const first = await startServer(env());
      const second = await startServer(env());
      await Promise.all([floodValues(first, "first"), floodValues(second, "second")]);
      await stop(first, second);
      const restarted = await startServer(env());
      await floodValues(restarted, "restarted");
      await stop(restarted);

      const stored = await storedValues();
      const flooded = [
        "referrer",
        "utm_source",
        "utm_medium",
        "utm_campaign",
        "insight",
        "browser",
      ];
      for (const [key, values] of stored) {
        const [, dimension = ""] = key.split(" ");
        const made = values.filter((value) => value !== "(other)");
        expect(made.length, key).toBeLessThanOrEqual(CAP);
        if (flooded.includes(dimension)) {
          // Full, and the rest counted as one other value.
          expect(made, key).toHaveLength(CAP);
          expect(values, key).toContain("(other)");
        }
        if (dimension === "page" || dimension === "entry") {
          // Only the pages the site has, under their own paths.
          expect(
            values.every((value) => value === "/" || value === "/weare"),
            key,
          ).toBe(true);
        }
        if (dimension === "device") expect(values, key).toEqual(["desktop"]);
      }
      const overflowed = await database.db
        .selectFrom("audience_value_caps")
        .select(["dimension", "admitted", "max_values"])
        .where("overflowed", "=", 1)
        .execute();
      expect(new Set(overflowed.map((row) => row.dimension))).toEqual(new Set(flooded));
      for (const row of overflowed) expect(row.admitted).toBeLessThanOrEqual(row.max_values);
    },
    PROCESS_TEST_MS,
  );

  /** The visitors stored per day (a test running past midnight UTC counts on two). */
  async function visitorsPerDay(): Promise<number[]> {
    const rows = await database.db
      .selectFrom("audience_days")
      .select("visitors")
      .where("dimension", "=", "total")
      .execute();
    return rows.map((row) => Number(row.visitors));
  }

  /** One address sends eight new browsers to each of two instances, then to one restarted. */
  async function floodFromOneAddress(more: Record<string, string>) {
    await database.db.deleteFrom("audience_days").execute();
    const address = newAddress();
    const first = await startServer(env(more));
    const second = await startServer(env(more));
    await floodVisitors(first, address, 0);
    await floodVisitors(second, address, 100);
    await stop(first, second);
    const restarted = await startServer(env(more));
    await floodVisitors(restarted, address, 200);
    await stop(restarted);
    const perDay = await visitorsPerDay();
    expect(perDay.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(VISITORS);
    return perDay;
  }

  it(
    "counts one address's many browsers as a few visitors in each process without Redis",
    async () => {
      // Each of the three processes counts the address alone.
      for (const visitors of await floodFromOneAddress({})) {
        expect(visitors).toBeLessThanOrEqual(3 * VISITORS);
      }
    },
    PROCESS_TEST_MS,
  );

  it.skipIf(!REDIS_URL)(
    "counts one address's many browsers as a few visitors across every process through Redis",
    async () => {
      for (const visitors of await floodFromOneAddress(redisEnv(REDIS_URL as string))) {
        expect(visitors).toBeLessThanOrEqual(VISITORS);
      }
    },
    PROCESS_TEST_MS,
  );
});
