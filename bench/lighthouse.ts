/**
 * `npm run bench:lighthouse`: Lighthouse (mobile preset: Moto G Power, slow 4G,
 * 4x CPU slowdown) on every route of the built site, in Debian's Chromium. Runs
 * each route, one case study's page, the Insight archive and one issue's page
 * RUNS times and reports the median, with the page's weight without video, as
 * a Markdown table for docs/benchmarks.md. The server starts on a database
 * that already holds a sent issue (the archive keeps its pages in memory, so
 * it must find the issue at start). Lighthouse is fetched by npx on first
 * use, so it is not a dependency of the site.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { CHROMIUM_LAUNCH } from "../e2e/support/chromium.ts";
import { renderIssue } from "../src/server/features/newsletter/render.ts";
import { openDatabase } from "../src/server/platform/db/connection.ts";
import { migrateToLatest } from "../src/server/platform/db/migrations.ts";
import {
  caseStudyPath,
  INSIGHT_PATH,
  insightIssuePath,
  SCREEN_PATHS,
} from "../src/shared/routes.ts";
import { startServer } from "../test/support/server-process.ts";

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
  /** Lighthouse's own measure of the machine's speed, to set beside every figure. */
  benchmarkIndex: number;
  /** Bytes transferred, videos left out. */
  weight: number;
}

/** The issue the archive shows: as long as a real one, with a picture, rendered as a send renders it. */
const ISSUE = {
  slug: "cash-forecasting-that-finance-trusts",
  title: "Cash forecasting that finance trusts",
  summary:
    "How a weekly model turned receivables from a guess into a plan, and three questions to ask your data team.",
  body: [
    "Most companies already have the data they need to forecast cash. What they lack is a habit of looking at it **every week**, and a model that says how sure it is.",
    "## What changed this quarter",
    "We rebuilt the receivables forecast for a regional distributor. Read the [case study](/weserve/case-studies/finance-ar-forecast) for the long version.",
    "- Invoices are scored by the probability they are paid late.\n- The model retrains every Sunday night.\n- Finance sees one number and a range, not a dashboard.",
    "> The forecast stopped being a debate and became a meeting agenda.",
    "![The Meridian logo on a dark blue background](/images/share.png)",
    "### Three questions to ask your data team",
    "1. Which invoices do we expect to slip, and why?\n2. How wrong were we last month?\n3. What would change the answer?",
    "Until next month, the Meridian team.",
  ].join("\n\n"),
};

/** Every route, one case study, the archive and its issue; PATHS=/,/weare measures only those. */
const PATHS = process.env.PATHS
  ? process.env.PATHS.split(",")
  : [
      ...SCREEN_PATHS,
      caseStudyPath("finance-ar-forecast"),
      INSIGHT_PATH,
      insightIssuePath(ISSUE.slug),
    ];

/** A new database holding ISSUE as sent, for the server to start on. */
async function databaseWithAnIssue(): Promise<string> {
  const sqliteFile = join(work, "site.db");
  const { db, engine } = openDatabase({ sqliteFile });
  try {
    await migrateToLatest(db, engine);
    const { webHtml } = renderIssue(ISSUE, { origin: `http://127.0.0.1:${PORT}` });
    const now = new Date().toISOString();
    await db
      .insertInto("issues")
      .values({
        ...ISSUE,
        status: "sent",
        started_at: now,
        web_html: webHtml,
        author: "bench:lighthouse",
        created_at: now,
        updated_at: now,
      })
      .execute();
  } finally {
    await db.destroy();
  }
  return sqliteFile;
}

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
    benchmarkIndex: report.environment.benchmarkIndex as number,
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

const server = await startServer({
  PORT: String(PORT),
  STATIC_DIR: "build/client",
  SQLITE_FILE: await databaseWithAnIssue(),
  MAILBOX_DIR: join(work, "mail"),
  MEDIA_DIR: join(work, "media"),
});
const { origin } = server;
try {
  const rows: string[] = [];
  const benchmarkIndexes: number[] = [];
  let index = 0;
  for (const path of PATHS) {
    const results: Result[] = [];
    for (let i = 0; i < RUNS; i += 1) results.push(await audit(path, index++));
    benchmarkIndexes.push(...results.map((r) => r.benchmarkIndex));
    const score = (id: string) => median(results.map((r) => r.scores[id] ?? 0));
    const ms = (pick: (r: Result) => number) =>
      `${(median(results.map(pick)) / 1000).toFixed(2)} s`;
    rows.push(
      `| ${path} | ${score("performance")} | ${score("accessibility")} | ${score("best-practices")} | ${score("seo")} | ${ms((r) => r.fcp)} | ${ms((r) => r.lcp)} | ${Math.round(median(results.map((r) => r.tbt)))} ms | ${median(results.map((r) => r.cls)).toFixed(3)} | ${Math.round(median(results.map((r) => r.weight)) / 1024)} KB |`,
    );
    console.error(`measured ${path}`);
  }
  console.log(
    `Median of ${RUNS} runs per route, ${LIGHTHOUSE}, mobile preset, Chromium ${process.env.CHROME_PATH ?? "/usr/bin/chromium"}; benchmarkIndex ${Math.round(median(benchmarkIndexes))} (${Math.round(Math.min(...benchmarkIndexes))}–${Math.round(Math.max(...benchmarkIndexes))}).\n`,
  );
  console.log(
    "| Route | Performance | Accessibility | Best practices | SEO | FCP | LCP | TBT | CLS | Weight (no video) |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
} finally {
  server.child.kill("SIGTERM");
}
