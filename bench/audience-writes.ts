/**
 * `npm run bench:audience-writes`: how many page views a day one instance's
 * counting sustains, rollups written to the database included, on SQLite
 * and on PostgreSQL (when TEST_DATABASE_URL names a server; a database of
 * its own is made and dropped).
 *
 * A day of traffic is replayed faster than it came: VIEWS views, their
 * clock moving as 10 million views a day would move it (8.64 ms a view),
 * from 250,000 visitors on 12 browsers, 400 pages, 200 referrers and 50
 * campaigns, each counted as the server counts a served page (the visitor's
 * and the address's keyed hashes, the address's numbers, its visit, the
 * tally) and the tally added to audience_days every 10 seconds of that
 * clock, as AUDIENCE_FLUSH_SECONDS does, each value new to the day let in
 * through its dimension's cap in the database first. The
 * baseline of the same run is the same replay without a database: the
 * counting alone. A day of 10 million views needs 116 views a second; the
 * table says how many times that the replay went.
 */
import { randomBytes } from "node:crypto";
import { AddressLimits } from "../src/server/features/audience/addresses.ts";
import {
  arrivesFromElsewhere,
  type Hit,
  visitAttributes,
} from "../src/server/features/audience/hits.ts";
import { viewHasher } from "../src/server/features/audience/salts.ts";
import { Tally } from "../src/server/features/audience/tally.ts";
import { MemoryVisitors } from "../src/server/features/audience/visits.ts";
import type { DatabaseHandle } from "../src/server/platform/db/connection.ts";
import { loadConfig } from "../src/server/settings.ts";
import { ENGINES, openMigrated } from "../test/support/engines.ts";

const VIEWS = Number(process.env.VIEWS ?? 1_000_000);
const VIEWS_A_DAY = 10_000_000;
const MS_PER_VIEW = 86_400_000 / VIEWS_A_DAY;
const FLUSH_MS = 10_000;
const NEEDED_PER_SECOND = VIEWS_A_DAY / 86_400;
const START = Date.parse("2026-11-27T00:00:00.000Z");

const VISITORS = 250_000;
const PAGES = Array.from({ length: 400 }, (_, i) => (i === 0 ? "/" : `/insight/issue-${i}`));
const REFERRERS = Array.from({ length: 200 }, (_, i) => `https://site-${i}.example/post`);
const CAMPAIGNS = Array.from({ length: 50 }, (_, i) => `campaign-${i}`);
const AGENTS = Array.from(
  { length: 12 },
  (_, i) =>
    `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/1${i}0.0.0.0 Safari/537.36`,
);
const isOwn = (host: string) => host === "meridian.example";

/** A deterministic stream of views: the same in every run and on both engines. */
function* views(): Generator<Hit> {
  let seed = 42;
  const next = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  for (let i = 0; i < VIEWS; i += 1) {
    const at = START + Math.floor(i * MS_PER_VIEW);
    const visitor = next(VISITORS);
    const entering = next(4) === 0;
    const referrer = entering && next(2) === 0 ? (REFERRERS[next(REFERRERS.length)] ?? "") : "";
    const query =
      entering && next(5) === 0 ? `utm_campaign=${CAMPAIGNS[next(CAMPAIGNS.length)]}` : "";
    yield {
      day: "2026-11-27",
      at,
      ip: `10.${visitor >> 16}.${(visitor >> 8) & 255}.${visitor & 255}`,
      userAgent: AGENTS[visitor % AGENTS.length] ?? "",
      path: PAGES[Math.min(next(PAGES.length), next(PAGES.length))] ?? "/",
      referrer,
      query,
      arrives: arrivesFromElsewhere(referrer, query, isOwn),
    };
  }
}

interface Run {
  seconds: number;
  flushes: number;
  rowsWritten: number;
  slowestFlushMs: number;
}

/** The settings' defaults: what a site runs with. */
const config = loadConfig({});

async function replay(database: DatabaseHandle | null): Promise<Run> {
  const tally = new Tally(config.AUDIENCE_VALUES_PER_DAY);
  const addresses = new AddressLimits({
    viewsPerMinute: config.AUDIENCE_VIEWS_PER_MINUTE,
    visitorsPerAddress: config.AUDIENCE_VISITORS_PER_ADDRESS,
  });
  const visitors = new MemoryVisitors(tally, addresses);
  const hash = viewHasher(randomBytes(32));
  let nextFlush = START + FLUSH_MS;
  let flushes = 0;
  let rowsWritten = 0;
  let slowestFlushMs = 0;
  const flush = async () => {
    if (!database) {
      tally.take();
      return;
    }
    const rows = tally.size;
    const began = performance.now();
    await tally.flush(database.db, "2026-11-27");
    slowestFlushMs = Math.max(slowestFlushMs, performance.now() - began);
    flushes += 1;
    rowsWritten += rows;
  };
  const began = performance.now();
  for (const hit of views()) {
    if (hit.at >= nextFlush) {
      await flush();
      nextFlush += FLUSH_MS;
    }
    visitors.countNow(hash(hit.ip, hit.userAgent), hit, () => visitAttributes(hit, isOwn));
  }
  await flush();
  return { seconds: (performance.now() - began) / 1000, flushes, rowsWritten, slowestFlushMs };
}

const perSecond = (run: Run) => VIEWS / run.seconds;
const fixed = (n: number, digits = 0) => n.toFixed(digits);

console.log(
  `${VIEWS.toLocaleString("en-GB")} views replayed at 10 million a day (${fixed((VIEWS / VIEWS_A_DAY) * 24, 1)} h of traffic), flushed every ${FLUSH_MS / 1000} s of it\n`,
);
console.log(
  "| Engine | views/s, counting alone | views/s, with the rollups written | × the 116 views/s of 10 M a day | flushes | rows a flush | slowest flush |",
);
console.log("|---|---|---|---|---|---|---|");
for (const engine of ENGINES) {
  const testDb = await engine.create();
  const database = await openMigrated(testDb);
  try {
    const alone = await replay(null);
    const written = await replay(database);
    const check = await database.db
      .selectFrom("audience_days")
      .select((eb) => eb.fn.sum<number | string>("views").as("views"))
      .where("dimension", "=", "total")
      .executeTakeFirst();
    if (Number(check?.views) !== VIEWS) {
      throw new Error(`${engine.engine}: ${check?.views} views stored, ${VIEWS} counted`);
    }
    console.log(
      `| ${engine.engine} | ${fixed(perSecond(alone))} | ${fixed(perSecond(written))} | ${fixed(perSecond(written) / NEEDED_PER_SECOND)}× | ${written.flushes} | ${fixed(written.rowsWritten / written.flushes)} | ${fixed(written.slowestFlushMs, 1)} ms |`,
    );
  } finally {
    await database.db.destroy();
    await testDb.drop();
  }
}
