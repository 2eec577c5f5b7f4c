/**
 * `npx tsx bench/counting-cost.ts`: what counting a page view costs the
 * process, measured in one process so that a busy machine weighs on both
 * sides alike (bench:http's figures swing with every other process on a
 * shared machine). Two apps on SQLite serve the same page from memory
 * through app.inject, one with AUDIENCE_COUNTING on and one off, in
 * alternating blocks of BLOCK requests; the table gives the median time per
 * request on each side and their difference: the counting's own cost, on
 * the request's path and after it (the onResponse hook runs before inject
 * resolves). "One visitor": one address and browser (a view in a visit
 * under way); "a new visitor each time": a new user agent at every request,
 * so each begins a visit and has its user agent parsed.
 */
import { performance } from "node:perf_hooks";
import { startApp, type TestApp } from "../test/support/app.ts";
import { ENGINES } from "../test/support/engines.ts";

const BLOCK = Number(process.env.BLOCK ?? 2000);
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const BROWSER =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const sqlite = ENGINES.find((engine) => engine.engine === "sqlite");
if (!sqlite) throw new Error("no SQLite engine");

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
let turn = 0;

async function block(t: TestApp, path: string, newVisitors: boolean): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < BLOCK; i += 1) {
    turn += 1;
    const agent = newVisitors ? `${BROWSER} visitor/${turn}` : BROWSER;
    const response = await t.app.inject({
      method: "GET",
      url: path,
      headers: { "user-agent": agent, "accept-encoding": "br" },
    });
    if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode}`);
  }
  return ((performance.now() - started) * 1000) / BLOCK;
}

const env = { AUDIENCE_FLUSH_SECONDS: "10", LOG_LEVEL: "warn" };
const on = await startApp(sqlite, env);
const off = await startApp(sqlite, { ...env, AUDIENCE_COUNTING: "off" });
const rows: string[] = [];
try {
  for (const [path, newVisitors] of [
    ["/", false],
    ["/weare", false],
    ["/", true],
  ] as const) {
    const withCounting: number[] = [];
    const without: number[] = [];
    const added: number[] = [];
    await block(on, path, newVisitors);
    await block(off, path, newVisitors);
    for (let round = 0; round < ROUNDS; round += 1) {
      const first = round % 2 === 0 ? on : off;
      const second = first === on ? off : on;
      const a = await block(first, path, newVisitors);
      const b = await block(second, path, newVisitors);
      const [counted, uncounted] = first === on ? [a, b] : [b, a];
      withCounting.push(counted);
      without.push(uncounted);
      added.push(counted - uncounted);
    }
    await on.app.audience.flush();
    rows.push(
      `| \`GET ${path}\`, ${newVisitors ? "a new visitor each time" : "one visitor"} | ${median(without).toFixed(1)} µs | ${median(withCounting).toFixed(1)} µs | ${median(added).toFixed(1)} µs | ${((median(without) / median(withCounting)) * 100).toFixed(1)} % |`,
    );
    console.error(`measured ${path}${newVisitors ? " (new visitors)" : ""}`);
  }
} finally {
  await on.close();
  await off.close();
}

console.log(
  `${ROUNDS} alternating rounds of ${BLOCK} requests each side through app.inject, after a block of warm-up; medians of the rounds.\n`,
);
console.log("| Request | per request, off | per request, on | counting adds | throughput kept |");
console.log("|---|---|---|---|---|");
for (const row of rows) console.log(row);
