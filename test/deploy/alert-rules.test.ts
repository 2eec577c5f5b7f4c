/**
 * The alerting rules (deploy/prometheus-alerts.yml), run by promtool
 * (Debian's prometheus package) on series as the site exports them: every
 * rule fires on its condition and resolves once it has passed. A rule that
 * watches a figure rise (delta) sees nothing when the figure appears with
 * its first value, so every figure and label the rules read is looked for
 * in a real scrape of a site that has done nothing yet. Where the event can
 * be made for real (mail given up on, complaints, scheduled backups that
 * fail, Redis going away and coming back), promtool is fed the site's own
 * scrapes, before and after; the other rules' series are written here,
 * with the label sets the site's scrape has.
 */
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { MAIL_KINDS } from "../../src/server/platform/outbox/kinds.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { ENGINES } from "../support/engines.ts";
import { REDIS_SKIP_REASON, REDIS_URL, redisEnv, redisRelay } from "../support/redis.ts";

const RULES_FILE = fileURLToPath(new URL("../../deploy/prometheus-alerts.yml", import.meta.url));
const TOKEN = "a-scrapers-token-of-forty-characters-0123";

const PROMTOOL_MISSING = spawnSync("promtool", ["--version"]).error !== undefined;
const PROMTOOL_SKIP_REASON =
  "Alert rule tests skipped: promtool is not installed (Debian package prometheus)";
if (PROMTOOL_MISSING) console.warn(PROMTOOL_SKIP_REASON);
if (!REDIS_URL) console.warn(REDIS_SKIP_REASON);

/** Prometheus adds these to every series it scrapes from the site. */
const TARGET = { job: "site", instance: "site-1:9464" };
const OTHER_TARGET = { job: "site", instance: "site-2:9464" };

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of an exposition, as Prometheus reads them. */
function parseScrape(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)) {
      labels[key as string] = value as string;
    }
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(t: TestApp): Promise<Sample[]> {
  const response = await t.app.inject({
    method: "GET",
    url: "/metrics",
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.statusCode).toBe(200);
  return parseScrape(response.body);
}

/** One series in PromQL's own notation. */
function seriesName(name: string, labels: Record<string, string>): string {
  const pairs = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  return `${name}{${pairs.join(",")}}`;
}

/** A selector a rule reads: the figure and its equality matchers (the regex ones are left out). */
interface Selector {
  name: string;
  matchers: Record<string, string>;
}

/** Every figure of the site's own that the rules read, with the labels they match on. */
function ruleSelectors(): Selector[] {
  const rules = readFileSync(RULES_FILE, "utf8");
  const expressions = rules
    .split("\n")
    .filter((line) => !line.trimStart().startsWith("#"))
    .join("\n");
  const selectors: Selector[] = [];
  for (const [, name, matchers] of expressions.matchAll(/\b((?:site|nodejs)_\w+)(\{[^}]*\})?/g)) {
    const equal: Record<string, string> = {};
    for (const [, key, value] of (matchers ?? "").matchAll(/(\w+)="([^"]*)"/g)) {
      equal[key as string] = value as string;
    }
    selectors.push({ name: name as string, matchers: equal });
  }
  return selectors;
}

const matches = (sample: Sample, { name, matchers }: Selector) =>
  sample.name === name &&
  Object.entries(matchers).every(([key, value]) => sample.labels[key] === value);

/**
 * The figures that exist only in some sites, or at some times, and the
 * reason; every other figure a rule reads is in the first scrape.
 */
const NOT_FROM_START: Record<string, (engine: string, redis: boolean) => boolean> = {
  // One series per send under way, from the moment it is queued.
  site_newsletter_send_copies: () => true,
  // The pool is PostgreSQL's.
  site_db_pool_waiting_queries: (engine) => engine !== "postgres",
  // Only with REDIS_URL.
  site_redis_up: (_engine, redis) => !redis,
};

interface InputSeries {
  series: string;
  values: string;
}

/**
 * Promtool's input from scrapes taken at given minutes: each series has, at
 * each step up to `minutes`, its value in the last scrape taken by then,
 * and no value ("_") where that scrape lacks it, as Prometheus would have
 * scraped the site at each step.
 */
function fromScrapes(
  scrapes: { at: number; samples: Sample[] }[],
  minutes: number,
  read: Set<string>,
  stepMinutes = 1,
): InputSeries[] {
  const all = new Map<string, Map<number, number>>();
  scrapes.forEach(({ samples }, index) => {
    for (const sample of samples) {
      if (!read.has(sample.name)) continue;
      const key = seriesName(sample.name, { ...sample.labels, ...TARGET });
      const values = all.get(key) ?? new Map<number, number>();
      values.set(index, sample.value);
      all.set(key, values);
    }
  });
  return [...all].map(([series, byScrape]) => {
    const values: string[] = [];
    for (let minute = 0; minute <= minutes; minute += stepMinutes) {
      const index = scrapes.findLastIndex(({ at }) => at <= minute);
      values.push(String(byScrape.get(index) ?? "_"));
    }
    return { series, values: values.join(" ") };
  });
}

interface ExpectedAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

/** What promtool should find at one evaluation time: the alerts firing, none for []. */
interface Check {
  at: string;
  alerts: ExpectedAlert[];
}

const execFileAsync = promisify(execFile);

/**
 * Runs `promtool test rules` on the rules file with one test: the series,
 * a value each step, and the alert expected (or not) at each time. The
 * rules are evaluated at each step too: a longer one for the cases that
 * span days. Resolves with promtool's output and whether every check held.
 */
async function promtool(
  alertname: string,
  series: InputSeries[],
  checks: Check[],
  stepMinutes: number,
) {
  const test = {
    rule_files: [RULES_FILE],
    evaluation_interval: `${stepMinutes}m`,
    tests: [
      {
        interval: `${stepMinutes}m`,
        input_series: series,
        alert_rule_test: checks.map(({ at, alerts }) => ({
          eval_time: at,
          alertname,
          exp_alerts: alerts.map(({ labels, annotations }) => ({
            exp_labels: labels,
            exp_annotations: annotations,
          })),
        })),
      },
    ],
  };
  // JSON is YAML: promtool reads it as it is.
  const file = join(mkdtempSync(join(tmpdir(), "alert-rules-")), "test.yml");
  writeFileSync(file, JSON.stringify(test, null, 2));
  try {
    const { stdout } = await execFileAsync("promtool", ["test", "rules", file]);
    return { passed: true, output: stdout };
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    return { passed: false, output: `${stdout}${stderr}` };
  }
}

/** The alerts a case below has run, for the check that every rule has one. */
const tested = new Set<string>();

async function expectAlerts(
  alertname: string,
  series: InputSeries[],
  checks: Check[],
  stepMinutes = 1,
) {
  tested.add(alertname);
  const { passed, output } = await promtool(alertname, series, checks, stepMinutes);
  expect(passed, output).toBe(true);
}

/** A series written out here, at one instance unless said: `values` in promtool's notation. */
const series = (
  name: string,
  labels: Record<string, string>,
  values: string,
  target: Record<string, string> = TARGET,
): InputSeries => ({ series: seriesName(name, { ...labels, ...target }), values });

const [sqlite] = ENGINES;
if (!sqlite) throw new Error("SQLite is always among the engines");

describe.each(ENGINES)("every figure the rules read, on $engine", (engine) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("is in the first scrape of a site that has done nothing yet, with the labels the rules match", async () => {
    const redis = REDIS_URL !== undefined;
    t = await startApp(engine, {
      METRICS_TOKEN: TOKEN,
      ...(REDIS_URL ? redisEnv(REDIS_URL) : {}),
    });
    // The HTTP figures are each route's from its first answer.
    await t.app.inject({ method: "GET", url: "/healthz" });
    const samples = await scrape(t);
    const selectors = ruleSelectors();
    expect(selectors.length).toBeGreaterThan(10);
    const missing = selectors
      .filter(({ name }) => !NOT_FROM_START[name]?.(engine.engine, redis))
      .filter((selector) => !samples.some((sample) => matches(sample, selector)))
      .map(({ name, matchers }) => seriesName(name, matchers));
    expect(missing).toEqual([]);

    // Every kind of mail has its waiting and failed count, and every kind of report its count.
    for (const kind of MAIL_KINDS) {
      for (const status of ["pending", "failed"]) {
        const labels = { kind, status };
        expect(samples, seriesName("site_outbox_messages", labels)).toContainEqual({
          name: "site_outbox_messages",
          labels,
          value: 0,
        });
      }
    }
    for (const kind of ["hard", "soft", "complaint"]) {
      expect(samples).toContainEqual({ name: "site_delivery_reports", labels: { kind }, value: 0 });
    }
  });
});

describe.skipIf(PROMTOOL_MISSING)("the alerting rules, fed the site's own scrapes", () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  const read = new Set(ruleSelectors().map(({ name }) => name));

  it("SiteMailFailing fires when mail of a kind is given up on, and resolves after 30 minutes", async () => {
    t = await startApp(sqlite, { METRICS_TOKEN: TOKEN });
    const before = await scrape(t);
    const now = new Date().toISOString();
    await t.database.db
      .insertInto("outbox")
      .values({
        kind: "inquiry-notification",
        message: "{}",
        status: "failed",
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const after = await scrape(t);
    const input = fromScrapes(
      [
        { at: 0, samples: before },
        { at: 40, samples: after },
      ],
      120,
      read,
    );
    await expectAlerts("SiteMailFailing", input, [
      { at: "35m", alerts: [] },
      {
        at: "50m",
        alerts: [
          {
            labels: {
              severity: "warning",
              job: "site",
              kind: "inquiry-notification",
              status: "failed",
            },
            annotations: {
              summary: "Mail of kind inquiry-notification failed for good in the last 30 minutes",
              description:
                "The outbox gave up on 1 more message(s). See the last_error of the failed rows, and the mail server.",
            },
          },
        ],
      },
      { at: "80m", alerts: [] },
    ]);
  });

  it("SiteComplaintsRising fires past 5 complaints in an hour, and resolves an hour on", async () => {
    t = await startApp(sqlite, { METRICS_TOKEN: TOKEN });
    const before = await scrape(t);
    await t.database.db
      .insertInto("delivery_reports")
      .values(
        Array.from({ length: 6 }, (_, n) => ({
          email: `complained-${n}@example.com`,
          kind: "complaint" as const,
          status: null,
          source: "smtp",
          source_key: null,
          outbox_id: null,
          message_kind: null,
          issue_id: null,
          text: "report",
          received_at: new Date().toISOString(),
        })),
      )
      .execute();
    const after = await scrape(t);
    const input = fromScrapes(
      [
        { at: 0, samples: before },
        { at: 70, samples: after },
      ],
      200,
      read,
    );
    await expectAlerts("SiteComplaintsRising", input, [
      { at: "65m", alerts: [] },
      {
        at: "90m",
        alerts: [
          {
            labels: { severity: "warning", job: "site", kind: "complaint" },
            annotations: {
              summary: "6 spam complaints in the last hour",
              description:
                "The send guard pauses a send past SEND_GUARD_COMPLAINT_PERCENT; look at the console's Sending health.",
            },
          },
        ],
      },
      { at: "140m", alerts: [] },
    ]);
  });

  it("SiteBackupMissing fires when the server's backups never succeed, and resolves at the first that does", async () => {
    // A folder inside a file cannot be made: each scheduled backup fails.
    const file = join(mkdtempSync(join(tmpdir(), "no-backups-")), "a-file");
    writeFileSync(file, "");
    t = await startApp(sqlite, {
      METRICS_TOKEN: TOKEN,
      BACKUP_EVERY_HOURS: "24",
      BACKUP_DIR: join(file, "backups"),
    });
    const failedOnce = async () =>
      (await scrape(t as TestApp)).some(
        (sample) => sample.name === "site_backup_last_failed" && sample.value === 1,
      );
    await expect.poll(failedOnce, { timeout: 10_000 }).toBe(true);
    const never = await scrape(t);
    const finished = new Date().toISOString();
    await t.database.db
      .insertInto("backups")
      .values({ trigger: "command", started_at: finished, finished_at: finished, result: "ok" })
      .execute();
    const taken = await scrape(t);
    // promtool's clock starts at 1970: the backup's time, now, lies ahead of it.
    const input = fromScrapes(
      [
        { at: 0, samples: never },
        { at: 120, samples: taken },
      ],
      180,
      read,
    );
    await expectAlerts("SiteBackupMissing", input, [
      { at: "30m", alerts: [] },
      {
        at: "90m",
        alerts: [
          {
            labels: { severity: "critical", backups: "none", job: "site" },
            annotations: {
              summary:
                "No backup has ever succeeded, though the server takes one every 1d 0h 0m 0s",
              description:
                "The first is taken when the server starts: see the console's Backups for why they fail, and BACKUP_DIR.",
            },
          },
        ],
      },
      { at: "150m", alerts: [] },
    ]);
  });

  it("SiteBackupMissing stays quiet without a schedule until a first backup is taken by hand", async () => {
    t = await startApp(sqlite, { METRICS_TOKEN: TOKEN });
    const input = fromScrapes([{ at: 0, samples: await scrape(t) }], 30 * 60, read, 10);
    await expectAlerts(
      "SiteBackupMissing",
      input,
      [
        { at: "2h", alerts: [] },
        { at: "30h", alerts: [] },
      ],
      10,
    );
  });

  describe.skipIf(!REDIS_URL)("with TEST_REDIS_URL", () => {
    it("SiteRedisDown fires when an instance loses Redis, and resolves when it is back", async () => {
      const relay = await redisRelay(REDIS_URL as string);
      try {
        t = await startApp(sqlite, {
          METRICS_TOKEN: TOKEN,
          ...redisEnv(REDIS_URL as string),
          REDIS_URL: relay.url,
        });
        const redisUp = async () =>
          (await scrape(t as TestApp)).find((sample) => sample.name === "site_redis_up")?.value;
        expect(await redisUp()).toBe(1);
        const up = await scrape(t);
        relay.cut();
        await expect.poll(redisUp).toBe(0);
        const down = await scrape(t);
        relay.restore();
        await expect.poll(redisUp, { timeout: 10_000 }).toBe(1);
        const back = await scrape(t);
        const input = fromScrapes(
          [
            { at: 0, samples: up },
            { at: 10, samples: down },
            { at: 20, samples: back },
          ],
          30,
          read,
        );
        const alert = {
          labels: { severity: "critical", ...TARGET },
          annotations: {
            summary: "site-1:9464 cannot reach Redis",
            description:
              "Its rate limits are not counted, and its audience visits are told apart by this instance alone, until Redis answers again.",
          },
        };
        await expectAlerts("SiteRedisDown", input, [
          { at: "5m", alerts: [] },
          { at: "11m", alerts: [] },
          { at: "13m", alerts: [alert] },
          { at: "25m", alerts: [] },
        ]);
      } finally {
        // The app's connection to the relay first: the relay waits for its connections to end.
        await t?.close();
        t = undefined;
        await relay.close();
      }
    });
  });
});

describe.skipIf(PROMTOOL_MISSING)("the alerting rules, fed series written here", () => {
  it("SiteMailFailing fires on a kind's failed count rising, on either instance", async () => {
    const failed = { kind: "welcome", status: "failed" };
    await expectAlerts(
      "SiteMailFailing",
      [
        series("site_outbox_messages", failed, "0x20 2x60"),
        series("site_outbox_messages", failed, "0x20 2x60", OTHER_TARGET),
      ],
      [
        { at: "15m", alerts: [] },
        {
          at: "30m",
          alerts: [
            {
              labels: { severity: "warning", job: "site", ...failed },
              annotations: {
                summary: "Mail of kind welcome failed for good in the last 30 minutes",
                description:
                  "The outbox gave up on 2 more message(s). See the last_error of the failed rows, and the mail server.",
              },
            },
          ],
        },
        { at: "60m", alerts: [] },
      ],
    );
  });

  it("SiteOutboxStuck fires when the oldest waiting mail is over 15 minutes old for 5 minutes", async () => {
    await expectAlerts(
      "SiteOutboxStuck",
      [series("site_outbox_oldest_pending_age_seconds", {}, "0x10 60+60x29 0x20")],
      [
        { at: "25m", alerts: [] },
        {
          at: "35m",
          alerts: [
            {
              labels: { severity: "critical", job: "site" },
              annotations: { summary: "Mail has waited 25m 0s in the outbox" },
            },
          ],
        },
        { at: "45m", alerts: [] },
      ],
    );
  });

  it("SiteOutboxGrowing fires when over 1,000 messages wait and keep growing for 30 minutes", async () => {
    const pending = { kind: "newsletter", status: "pending" };
    await expectAlerts(
      "SiteOutboxGrowing",
      [series("site_outbox_messages", pending, "1000+50x60 4000x60")],
      [
        { at: "20m", alerts: [] },
        {
          at: "45m",
          alerts: [
            {
              labels: { severity: "warning", job: "site", status: "pending" },
              annotations: { summary: "The outbox has 3250 messages waiting and keeps growing" },
            },
          ],
        },
        { at: "100m", alerts: [] },
      ],
    );
  });

  it("SiteSendStalled fires when a send's sent count stops moving for 15 minutes", async () => {
    const send = { issue_id: "7", issue_status: "sending" };
    await expectAlerts(
      "SiteSendStalled",
      [
        series(
          "site_newsletter_send_copies",
          { ...send, state: "pending" },
          "200-10x10 100x40 _x10",
        ),
        series("site_newsletter_send_copies", { ...send, state: "sent" }, "0+10x10 100x40 _x10"),
      ],
      [
        { at: "20m", alerts: [] },
        {
          at: "35m",
          alerts: [
            {
              labels: { severity: "warning", job: "site", ...send, state: "pending" },
              annotations: { summary: "The send of issue 7 has sent nothing for 15 minutes" },
            },
          ],
        },
        { at: "58m", alerts: [] },
      ],
    );
  });

  it("SiteHardBouncesRising fires past 50 hard bounces in an hour", async () => {
    const hard = { kind: "hard" };
    await expectAlerts(
      "SiteHardBouncesRising",
      [series("site_delivery_reports", hard, "0x60 60x120")],
      [
        { at: "55m", alerts: [] },
        {
          at: "90m",
          alerts: [
            {
              labels: { severity: "warning", job: "site", ...hard },
              annotations: { summary: "60 hard bounces in the last hour" },
            },
          ],
        },
        { at: "150m", alerts: [] },
      ],
    );
  });

  it("SiteBackupMissing fires when the last good backup is older than the schedule allows", async () => {
    // A backup at 1h, and one every 2 days: 2 days and 2 hours are allowed.
    await expectAlerts(
      "SiteBackupMissing",
      [
        series("site_backup_last_success_timestamp_seconds", {}, "3600x330"),
        series("site_backup_schedule_seconds", {}, "172800x330"),
      ],
      [
        { at: "30h", alerts: [] },
        { at: "50h", alerts: [] },
        {
          at: "53h30m",
          alerts: [
            {
              labels: { severity: "critical", backups: "late", job: "site" },
              annotations: {
                summary: "No backup has succeeded for 2d 4h 30m 0s",
                description: "See the console's Backups for the last one's result.",
              },
            },
          ],
        },
      ],
      10,
    );
  });

  it("SiteServerErrors fires when over 2 % of an instance's answers are 5xx for 5 minutes", async () => {
    const route = { route: "/api/v1/subscribe", method: "POST" };
    await expectAlerts(
      "SiteServerErrors",
      [
        series(
          "site_http_request_duration_seconds_count",
          { ...route, status_code: "201" },
          "0+100x60",
        ),
        series(
          "site_http_request_duration_seconds_count",
          { ...route, status_code: "500" },
          "0x10 0+5x20 100x30",
        ),
      ],
      [
        { at: "10m", alerts: [] },
        {
          at: "25m",
          alerts: [
            {
              labels: { severity: "critical", ...TARGET },
              annotations: { summary: "4.762% of site-1:9464's answers are 5xx" },
            },
          ],
        },
        { at: "45m", alerts: [] },
      ],
    );
  });

  it("SiteEventLoopDelayHigh fires when the event loop's p99 delay stays over 100 ms", async () => {
    await expectAlerts(
      "SiteEventLoopDelayHigh",
      [series("nodejs_eventloop_lag_p99_seconds", {}, "0.01x10 0.25x10 0.01x10")],
      [
        { at: "12m", alerts: [] },
        {
          at: "18m",
          alerts: [
            {
              labels: { severity: "warning", ...TARGET },
              annotations: { summary: "site-1:9464's event loop lags 250ms (p99)" },
            },
          ],
        },
        { at: "25m", alerts: [] },
      ],
    );
  });

  it("SiteDatabasePoolExhausted fires when queries wait for a connection for 5 minutes", async () => {
    await expectAlerts(
      "SiteDatabasePoolExhausted",
      [series("site_db_pool_waiting_queries", {}, "0x10 4x10 0x10")],
      [
        { at: "12m", alerts: [] },
        {
          at: "18m",
          alerts: [
            {
              labels: { severity: "warning", ...TARGET },
              annotations: { summary: "Queries on site-1:9464 wait for a PostgreSQL connection" },
            },
          ],
        },
        { at: "25m", alerts: [] },
      ],
    );
  });

  it("SiteMetricsUnreadable fires when a figure fails at more than 2 scrapes in 15 minutes", async () => {
    const gauge = { gauge: "site_outbox_messages" };
    await expectAlerts(
      "SiteMetricsUnreadable",
      [series("site_metrics_collector_failures_total", gauge, "0x10 1+1x4 5x30")],
      [
        { at: "10m", alerts: [] },
        {
          at: "15m",
          alerts: [
            {
              labels: { severity: "warning", ...TARGET, ...gauge },
              annotations: {
                summary:
                  'The figure site_outbox_messages could not be read at recent scrapes (see the log: "a metric could not be read")',
              },
            },
          ],
        },
        { at: "35m", alerts: [] },
      ],
    );
  });

  it("SiteRedisDown fires when an instance cannot reach Redis for 2 minutes", async () => {
    await expectAlerts(
      "SiteRedisDown",
      [
        series("site_redis_up", {}, "1x10 0x10 1x10"),
        series("site_redis_up", {}, "1x30", OTHER_TARGET),
      ],
      [
        { at: "11m", alerts: [] },
        {
          at: "15m",
          alerts: [
            {
              labels: { severity: "critical", ...TARGET },
              annotations: {
                summary: "site-1:9464 cannot reach Redis",
                description:
                  "Its rate limits are not counted, and its audience visits are told apart by this instance alone, until Redis answers again.",
              },
            },
          ],
        },
        { at: "25m", alerts: [] },
      ],
    );
  });

  it("SiteDown fires when Prometheus cannot scrape an instance for 2 minutes", async () => {
    await expectAlerts(
      "SiteDown",
      [series("up", {}, "1x10 0x10 1x10")],
      [
        { at: "11m", alerts: [] },
        {
          at: "15m",
          alerts: [
            {
              labels: { severity: "critical", ...TARGET },
              annotations: { summary: "Prometheus cannot scrape site-1:9464" },
            },
          ],
        },
        { at: "25m", alerts: [] },
      ],
    );
  });

  // Last in the file: the cases above have run.
  it("has run a case for every rule in the file", () => {
    const rules = readFileSync(RULES_FILE, "utf8");
    const names = new Set([...rules.matchAll(/- alert: (\w+)/g)].map(([, name]) => name as string));
    expect(names.size).toBeGreaterThan(10);
    expect([...names].filter((name) => !tested.has(name))).toEqual([]);
  });
});
