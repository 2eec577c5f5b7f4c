/**
 * `npm run bench:http`: requests per second and latency of the built site's
 * hottest answers, under autocannon (100 connections), beside a bare Fastify
 * server answering the same bytes from memory (bench/bare-server.ts). Each
 * answer is measured in ROUNDS rounds (5), ours and the bare server's one
 * after the other, the order swapped each round, so a noisy moment on a
 * shared machine hits both sides; the table gives the medians. Prints a
 * Markdown table for docs/benchmarks.md.
 * Targets: throughput >= 0.8x the bare server's, p99 <= 1.25x its p99.
 *
 * Then counting's cost (ADR 051): the pages again, with a browser's user
 * agent (a request without one is not counted), on the site as it runs and
 * on a second one with AUDIENCE_COUNTING=off, in alternating rounds the same
 * way. "One visitor" is every request from one address and browser (a view
 * in a visit under way, the common case); "50,000 visitors" gives each
 * request one of 50,000 user agents in turn, so the first round begins a
 * visit (and parses the user agent) at every request. Targets: counting
 * keeps >= 0.95x the throughput and adds <= 1 ms to p99.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { startBuiltSite } from "../scripts/built-site.ts";

const TARGETS = ["/", "/weare", "/api/v1/teams/", "/api/v1/items/?category=capabilities"];
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 100);
const SECONDS = Number(process.env.SECONDS ?? 5);
const WARM_UP_SECONDS = 1;
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SITE_PORT = 4350;
const BARE_PORT = 4351;
const UNCOUNTED_PORT = 4352;
const BROWSER =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const VISITORS = 50_000;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

type Agents = "none" | "one" | "many";

let agentTurn = 0;
/** The requests' user agents: none (the first table), one browser, or one of VISITORS in turn. */
function agentOptions(agents: Agents): Partial<autocannon.Options> {
  if (agents === "none") return {};
  if (agents === "one") return { headers: { "user-agent": BROWSER } };
  return {
    requests: [
      {
        setupRequest: (request) => {
          agentTurn = (agentTurn + 1) % VISITORS;
          return {
            ...request,
            headers: { ...request.headers, "user-agent": `${BROWSER} visitor/${agentTurn}` },
          };
        },
      },
    ],
  };
}

async function load(url: string, duration: number, agents: Agents = "none"): Promise<Figures> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    ...agentOptions(agents),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function measure(url: string, agents: Agents = "none"): Promise<Figures> {
  await load(url, WARM_UP_SECONDS, agents);
  return load(url, SECONDS, agents);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

async function startBare(answers: Record<string, { type: string; body: string }>) {
  const file = join(mkdtempSync(join(tmpdir(), "bare-")), "answers.json");
  writeFileSync(file, JSON.stringify(answers));
  const child = spawn(process.execPath, ["--import", "tsx", "bench/bare-server.ts", file], {
    env: { ...process.env, PORT: String(BARE_PORT) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => child.stdout?.once("data", () => resolve()));
  return () => child.kill("SIGTERM");
}

const site = await startBuiltSite(SITE_PORT);
const uncounted = await startBuiltSite(UNCOUNTED_PORT, { AUDIENCE_COUNTING: "off" });
const answers: Record<string, { type: string; body: string }> = {};
for (const path of TARGETS) {
  const response = await fetch(`${site.origin}${path}`, {
    headers: { "accept-encoding": "identity" },
  });
  answers[path] = {
    type: response.headers.get("content-type") ?? "application/octet-stream",
    body: Buffer.from(await response.arrayBuffer()).toString("base64"),
  };
}
const stopBare = await startBare(answers);

const rows: string[] = [];
try {
  for (const path of TARGETS) {
    const ours: Figures[] = [];
    const bare: Figures[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const measureOurs = async () => ours.push(await measure(`${site.origin}${path}`));
      const measureBare = async () =>
        bare.push(await measure(`http://127.0.0.1:${BARE_PORT}${path}`));
      if (round % 2 === 0) {
        await measureOurs();
        await measureBare();
      } else {
        await measureBare();
        await measureOurs();
      }
    }
    const throughput = median(ours.map((figures, round) => figures.rps / (bare[round]?.rps ?? 1)));
    const p99 = median(ours.map((figures, round) => figures.p99 / (bare[round]?.p99 ?? 1)));
    const errors = ours.reduce((sum, figures) => sum + figures.errors, 0);
    rows.push(
      `| \`GET ${path}\` | ${Math.round(median(ours.map((f) => f.rps)))} | ${median(ours.map((f) => f.p50))} ms | ${median(ours.map((f) => f.p99))} ms | ${errors} | ${Math.round(median(bare.map((f) => f.rps)))} | ${median(bare.map((f) => f.p99))} ms | ${throughput.toFixed(2)} | ${p99.toFixed(2)} |`,
    );
    console.error(`measured ${path}`);
  }
} finally {
  stopBare();
}

const COUNTED: [string, Agents][] = [
  ["/", "one"],
  ["/weare", "one"],
  ["/", "many"],
];
const countingRows: string[] = [];
try {
  for (const [path, agents] of COUNTED) {
    const on: Figures[] = [];
    const off: Figures[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const measureOn = async () => on.push(await measure(`${site.origin}${path}`, agents));
      const measureOff = async () => off.push(await measure(`${uncounted.origin}${path}`, agents));
      if (round % 2 === 0) {
        await measureOn();
        await measureOff();
      } else {
        await measureOff();
        await measureOn();
      }
    }
    const throughput = median(on.map((figures, round) => figures.rps / (off[round]?.rps ?? 1)));
    const added = median(on.map((figures, round) => figures.p99 - (off[round]?.p99 ?? 0)));
    const errors = [...on, ...off].reduce((sum, figures) => sum + figures.errors, 0);
    countingRows.push(
      `| \`GET ${path}\`, ${agents === "one" ? "one visitor" : `${VISITORS.toLocaleString("en")} visitors`} | ${Math.round(median(off.map((f) => f.rps)))} | ${Math.round(median(on.map((f) => f.rps)))} | ${throughput.toFixed(3)} | ${median(off.map((f) => f.p99))} ms | ${median(on.map((f) => f.p99))} ms | ${added >= 0 ? "+" : ""}${added} ms | ${errors} |`,
    );
    console.error(`measured counting on ${path} (${agents})`);
  }
} finally {
  site.stop();
  uncounted.stop();
}

console.log(
  `${CONNECTIONS} connections; ${ROUNDS} alternating rounds of ${SECONDS} s each side after a ${WARM_UP_SECONDS} s warm-up; medians; bodies uncompressed.\n`,
);
console.log(
  "| Request | req/s | p50 | p99 | errors | bare req/s | bare p99 | throughput ratio | p99 ratio |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
for (const row of rows) console.log(row);

console.log(
  "\nCounting's cost (AUDIENCE_COUNTING on, against a second site with it off; a browser's user agent on every request; medians of the rounds, the ratios and differences taken round by round):\n",
);
console.log(
  "| Request | req/s, off | req/s, on | throughput ratio | p99, off | p99, on | p99 added | errors |",
);
console.log("|---|---|---|---|---|---|---|---|");
for (const row of countingRows) console.log(row);
