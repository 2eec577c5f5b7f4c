/**
 * `npm run bench:http`: requests per second and latency of the built site's
 * hottest answers, under autocannon (100 connections, 10 s each after a 2 s
 * warm-up), beside a bare Fastify server answering the same bytes from memory
 * (bench/bare-server.ts). Prints a Markdown table for docs/benchmarks.md.
 * Targets: ratio to the bare server >= 0.8 and p99 <= 25 ms.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { startBuiltSite } from "../scripts/built-site.ts";

const TARGETS = ["/", "/weare", "/api/v1/teams/", "/api/v1/items/?category=capabilities"];
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 100);
const SECONDS = Number(process.env.SECONDS ?? 10);
const SITE_PORT = 4350;
const BARE_PORT = 4351;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(url: string, duration: number): Promise<Figures> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function measure(url: string): Promise<Figures> {
  await load(url, 2);
  return load(url, SECONDS);
}

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
    const ours = await measure(`${site.origin}${path}`);
    const bare = await measure(`http://127.0.0.1:${BARE_PORT}${path}`);
    const ratio = ours.rps / bare.rps;
    rows.push(
      `| \`GET ${path}\` | ${Math.round(ours.rps)} | ${ours.p50} ms | ${ours.p99} ms | ${ours.errors} | ${Math.round(bare.rps)} | ${bare.p99} ms | ${ratio.toFixed(2)} |`,
    );
    console.error(`measured ${path}`);
  }
} finally {
  stopBare();
  site.stop();
}

console.log(
  `${CONNECTIONS} connections, ${SECONDS} s per row after a 2 s warm-up; bodies uncompressed.\n`,
);
console.log("| Request | req/s | p50 | p99 | errors | bare req/s | bare p99 | ratio |");
console.log("|---|---|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
