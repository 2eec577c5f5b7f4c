/**
 * `npm run bench:lighthouse`: Lighthouse (mobile preset: Moto G Power, slow 4G,
 * 4x CPU slowdown) on every route of the built site, in Debian's Chromium. Runs
 * each route and one case study's page RUNS times and reports the median, with
 * the page's weight without video, as a Markdown table for docs/benchmarks.md. Lighthouse is fetched by npx on first use, so it is not a
 * dependency of the site.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { CHROMIUM_LAUNCH } from "../e2e/support/chromium.ts";
import { startBuiltSite } from "../scripts/built-site.ts";
import { caseStudyPath, SCREEN_PATHS } from "../src/shared/routes.ts";

const LIGHTHOUSE = "lighthouse@12.8.2";
const RUNS = Number(process.env.RUNS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 4340);
const work = mkdtempSync(join(tmpdir(), "lighthouse-"));
const run = promisify(execFile);

interface Result {
  scores: Record<string, number>;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  /** Bytes transferred, videos left out. */
  weight: number;
}

/** Every route and one case study; PATHS=/,/weare measures only those. */
const PATHS = process.env.PATHS
  ? process.env.PATHS.split(",")
  : [...SCREEN_PATHS, caseStudyPath("finance-ar-forecast")];

/** Lighthouse now and then fails to record a trace (NO_NAVSTART) on a busy machine: try again. */
async function audit(path: string, index: number, attempts = 3): Promise<Result> {
  try {
    return await auditOnce(path, index);
  } catch (error) {
    if (attempts <= 1) throw error;
    console.error(`retrying ${path}: ${String(error).split("\n")[1] ?? error}`);
    return audit(path, index, attempts - 1);
  }
}

async function auditOnce(path: string, index: number): Promise<Result> {
  const output = join(work, `${index}.json`);
  await run(
    "npx",
    [
      "--yes",
      LIGHTHOUSE,
      `${origin}${path}`,
      "--quiet",
      "--output=json",
      `--output-path=${output}`,
      `--chrome-flags=--headless=new ${CHROMIUM_LAUNCH.args.join(" ")}`,
    ],
    { env: { ...process.env, CHROME_PATH: CHROMIUM_LAUNCH.executablePath }, maxBuffer: 64 << 20 },
  );
  const report = JSON.parse(readFileSync(output, "utf8"));
  const metric = (id: string) => report.audits[id].numericValue as number;
  return {
    scores: Object.fromEntries(
      Object.entries(report.categories as Record<string, { score: number }>).map(([id, c]) => [
        id,
        Math.round(c.score * 100),
      ]),
    ),
    fcp: metric("first-contentful-paint"),
    lcp: metric("largest-contentful-paint"),
    tbt: metric("total-blocking-time"),
    cls: metric("cumulative-layout-shift"),
    weight: (
      report.audits["network-requests"].details.items as {
        mimeType?: string;
        transferSize?: number;
      }[]
    )
      .filter((item) => !item.mimeType?.startsWith("video/"))
      .reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
  };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const { origin, stop } = await startBuiltSite(PORT);
try {
  const rows: string[] = [];
  let index = 0;
  for (const path of PATHS) {
    const results: Result[] = [];
    for (let i = 0; i < RUNS; i += 1) results.push(await audit(path, index++));
    const score = (id: string) => median(results.map((r) => r.scores[id] ?? 0));
    const ms = (pick: (r: Result) => number) =>
      `${(median(results.map(pick)) / 1000).toFixed(2)} s`;
    rows.push(
      `| ${path} | ${score("performance")} | ${score("accessibility")} | ${score("best-practices")} | ${score("seo")} | ${ms((r) => r.fcp)} | ${ms((r) => r.lcp)} | ${Math.round(median(results.map((r) => r.tbt)))} ms | ${median(results.map((r) => r.cls)).toFixed(3)} | ${Math.round(median(results.map((r) => r.weight)) / 1024)} KB |`,
    );
    console.error(`measured ${path}`);
  }
  console.log(
    `Median of ${RUNS} runs per route, ${LIGHTHOUSE}, mobile preset, Chromium ${process.env.CHROME_PATH ?? "/usr/bin/chromium"}.\n`,
  );
  console.log(
    "| Route | Performance | Accessibility | Best practices | SEO | FCP | LCP | TBT | CLS | Weight (no video) |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
} finally {
  stop();
}
