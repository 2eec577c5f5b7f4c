/**
 * The operator's figures: read from the database at each scrape (the
 * outbox, the sends under way, the bounce and complaint reports), the HTTP
 * requests by route pattern, and where they are served: nowhere without
 * configuration, at /metrics on the site's port only with the bearer token
 * (anyone else gets the site's 404), on METRICS_PORT and not on the site's
 * port when that is set; on METRICS_PORT without the token only on the
 * loopback and to a request no proxy forwarded, and bound wider without it
 * not at all, with one line at start saying why (ADR 061).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isLoopbackHost } from "../../../src/server/platform/http/loopback.ts";
import {
  COLLECT_LIMIT_MS,
  METRICS_SERVED_MESSAGE,
  STATIC_ROUTE,
  unguardedMetricsMessage,
} from "../../../src/server/platform/ops/metrics.ts";
import { HELD_UNTIL } from "../../../src/server/platform/outbox/queue.ts";
import { startApp, stubSite, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";

const TOKEN = "a-scrapers-token-of-forty-characters-0123";
const WITH_TOKEN = { authorization: `Bearer ${TOKEN}` };

/** The value of the sample `name` whose labels include `labels`; undefined when there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}) {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? "").split(/,(?=[a-zA-Z_]\w*=")/);
    if (wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return undefined;
}

async function scrape(t: TestApp): Promise<string> {
  const response = await t.app.inject({ method: "GET", url: "/metrics", headers: WITH_TOKEN });
  expect(response.statusCode).toBe(200);
  return response.body;
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

describe.each(ENGINES)("the figures read from the database on $engine", (engine) => {
  let t: TestApp;
  // A database of its own for each test: each counts every row of a kind.
  beforeEach(async () => {
    t = await startApp(engine, { METRICS_TOKEN: TOKEN });
  });
  afterEach(() => t.close());

  /** Outbox rows the sender leaves alone: not due for an hour, or given up on. */
  async function queue(
    rows: {
      kind: string;
      status: "pending" | "failed" | "sent";
      createdAt: string;
      due?: string;
      issueId?: number;
      subscriptionId?: number;
    }[],
  ) {
    await t.database.db
      .insertInto("outbox")
      .values(
        rows.map((row) => ({
          kind: row.kind,
          message: "{}",
          status: row.status,
          next_attempt_at: row.due ?? inAnHour(),
          issue_id: row.issueId ?? null,
          subscription_id: row.subscriptionId ?? null,
          created_at: row.createdAt,
          updated_at: row.createdAt,
        })),
      )
      .execute();
  }

  it("counts the outbox's waiting and failed messages by kind, and the oldest waiting one's age", async () => {
    await queue([
      { kind: "welcome", status: "pending", createdAt: minutesAgo(12) },
      { kind: "welcome", status: "pending", createdAt: minutesAgo(1) },
      { kind: "inquiry-notification", status: "failed", createdAt: minutesAgo(30) },
      { kind: "welcome", status: "sent", createdAt: minutesAgo(40) },
      // A paused send's copy waits for a person: not the oldest waiting mail.
      { kind: "newsletter", status: "pending", createdAt: minutesAgo(90), due: HELD_UNTIL },
    ]);
    const text = await scrape(t);
    expect(sample(text, "site_outbox_messages", { kind: "welcome", status: "pending" })).toBe(2);
    expect(
      sample(text, "site_outbox_messages", { kind: "inquiry-notification", status: "failed" }),
    ).toBe(1);
    expect(sample(text, "site_outbox_messages", { kind: "newsletter", status: "pending" })).toBe(1);
    expect(sample(text, "site_outbox_messages", { status: "sent" })).toBeUndefined();
    const age = sample(text, "site_outbox_oldest_pending_age_seconds");
    expect(age).toBeGreaterThanOrEqual(12 * 60);
    expect(age).toBeLessThan(20 * 60);
  });

  it("shows each send under way: copies queued, sent, failed and pending", async () => {
    const now = new Date().toISOString();
    const issue = await t.database.db
      .insertInto("issues")
      .values({
        slug: `figures-${engine.engine}`,
        title: "Figures",
        summary: "A send for the figures.",
        body: "Text.",
        author: "Test",
        status: "paused",
        recipients: 4,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await queue(
      [
        { status: "sent" as const },
        { status: "sent" as const },
        { status: "failed" as const },
        { status: "pending" as const, due: HELD_UNTIL },
      ].map((row, n) => ({
        ...row,
        kind: "newsletter",
        createdAt: now,
        issueId: issue.id,
        subscriptionId: 1000 + n,
      })),
    );
    const text = await scrape(t);
    const copies = (state: string) =>
      sample(text, "site_newsletter_send_copies", {
        issue_id: String(issue.id),
        issue_status: "paused",
        state,
      });
    expect([copies("total"), copies("sent"), copies("failed"), copies("pending")]).toEqual([
      4, 2, 1, 1,
    ]);
  });

  it("counts the bounce and complaint reports kept, by kind", async () => {
    const report = (kind: "hard" | "soft" | "complaint", n: number) => ({
      email: `reported-${n}@example.com`,
      kind,
      status: kind === "complaint" ? null : "5.1.1",
      source: "smtp",
      source_key: null,
      outbox_id: null,
      message_kind: null,
      issue_id: null,
      text: "report",
      received_at: new Date().toISOString(),
    });
    await t.database.db
      .insertInto("delivery_reports")
      .values([report("hard", 1), report("hard", 2), report("soft", 3), report("complaint", 4)])
      .execute();
    const text = await scrape(t);
    expect(sample(text, "site_delivery_reports", { kind: "hard" })).toBe(2);
    expect(sample(text, "site_delivery_reports", { kind: "soft" })).toBe(1);
    expect(sample(text, "site_delivery_reports", { kind: "complaint" })).toBe(1);
  });

  it("shows when the last backup succeeded, and whether the last one failed", async () => {
    const before = await scrape(t);
    // 0 before the first: an alert sees that none ever succeeded.
    expect(sample(before, "site_backup_last_success_timestamp_seconds")).toBe(0);
    expect(sample(before, "site_backup_schedule_seconds")).toBe(0);
    const backup = (result: "ok" | "failed", finished: string) =>
      t.database.db
        .insertInto("backups")
        .values({ trigger: "command", started_at: finished, finished_at: finished, result })
        .execute();
    const succeeded = minutesAgo(90);
    await backup("ok", succeeded);
    await backup("failed", minutesAgo(30));
    const text = await scrape(t);
    expect(sample(text, "site_backup_last_success_timestamp_seconds")).toBe(
      Date.parse(succeeded) / 1000,
    );
    expect(sample(text, "site_backup_last_failed")).toBe(1);
  });

  it("shows the database's pool on PostgreSQL and counts failed queries", async () => {
    await expect(
      t.database.db
        .selectFrom("outbox")
        .select("id")
        .where("no_such_column" as "id", "=", 1)
        .execute(),
    ).rejects.toThrow();
    const text = await scrape(t);
    expect(sample(text, "site_db_query_errors_total")).toBeGreaterThanOrEqual(1);
    if (engine.engine === "postgres") {
      expect(sample(text, "site_db_pool_connections")).toBeGreaterThanOrEqual(1);
      expect(sample(text, "site_db_pool_idle_connections")).toBeGreaterThanOrEqual(0);
      expect(sample(text, "site_db_pool_waiting_queries")).toBe(0);
    } else {
      expect(sample(text, "site_db_pool_connections")).toBeUndefined();
    }
  });

  it("counts requests by route pattern, never by the path asked for", async () => {
    await t.app.inject({ method: "GET", url: "/healthz" });
    await t.app.inject({ method: "GET", url: "/no/such/page-1?x=1" });
    await t.app.inject({ method: "GET", url: "/no/such/page-2" });
    await t.app.inject({ method: "GET", url: "/api/v1/nothing-here" });
    const text = await scrape(t);
    const count = (labels: Record<string, string>) =>
      sample(text, "site_http_request_duration_seconds_count", labels);
    expect(count({ route: "/healthz", method: "GET", status_code: "200" })).toBeGreaterThanOrEqual(
      1,
    );
    expect(count({ route: "unmatched", method: "GET", status_code: "404" })).toBeGreaterThanOrEqual(
      3,
    );
    expect(text).not.toContain("page-1");
    expect(text).not.toContain("nothing-here");
    expect(
      sample(text, "site_http_request_duration_seconds_bucket", {
        route: "/healthz",
        status_code: "200",
        le: "+Inf",
      }),
    ).toBe(count({ route: "/healthz", method: "GET", status_code: "200" }));
    // The process's own figures: the event loop's delay among them.
    expect(sample(text, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
  });

  it("serves the other figures when one gauge fails or is too slow", async () => {
    t.app.metrics.gauge({
      name: "test_failing_gauge",
      help: "Fails.",
      read: async () => {
        throw new Error("deliberate failure of a test gauge");
      },
    });
    t.app.metrics.gauge({
      name: "test_slow_gauge",
      help: "Never answers.",
      read: () => new Promise<never>(() => {}),
    });
    const started = Date.now();
    await scrape(t);
    expect(Date.now() - started).toBeLessThan(COLLECT_LIMIT_MS + 1000);
    // A scrape shows the failures of the scrapes before it.
    const text = await scrape(t);
    expect(sample(text, "site_outbox_oldest_pending_age_seconds")).toBeDefined();
    expect(sample(text, "test_failing_gauge")).toBeUndefined();
    expect(
      sample(text, "site_metrics_collector_failures_total", { gauge: "test_failing_gauge" }),
    ).toBe(1);
    expect(
      sample(text, "site_metrics_collector_failures_total", { gauge: "test_slow_gauge" }),
    ).toBe(1);
    expect(t.logs.some((line) => line.includes("deliberate failure of a test gauge"))).toBe(true);
  });
});

const [sqlite] = ENGINES;
if (!sqlite) throw new Error("SQLite is always among the engines");

describe("the built site's files in the figures", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("counts every file under one route label, however many files a build has", async () => {
    const root = stubSite();
    mkdirSync(join(root, "assets"));
    const files = [
      "assets/entry-3f9a1c.js",
      "assets/styles-b82e07.css",
      "logo.svg",
      "site.webmanifest",
    ];
    for (const file of files) writeFileSync(join(root, file), `/* ${file} */`);
    t = await startApp(sqlite, { METRICS_TOKEN: TOKEN, STATIC_DIR: root });
    for (const file of files) {
      expect((await t.app.inject({ method: "GET", url: `/${file}` })).statusCode).toBe(200);
    }
    const text = await scrape(t);
    const routes = new Set(
      text
        .split("\n")
        .filter((line) => line.startsWith("site_http_request_duration_seconds_count{"))
        .map((line) => /route="([^"]*)"/.exec(line)?.[1]),
    );
    expect(routes).toEqual(new Set([STATIC_ROUTE]));
    expect(
      sample(text, "site_http_request_duration_seconds_count", {
        route: STATIC_ROUTE,
        method: "GET",
        status_code: "200",
      }),
    ).toBe(files.length);
    for (const file of files) expect(text).not.toContain(file);
  });
});

describe("where the figures are served", () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const unknownPath = async (app: TestApp) =>
    app.app.inject({ method: "GET", url: "/no-such-path-at-all" });

  it("serves nothing without METRICS_PORT or METRICS_TOKEN", async () => {
    t = await startApp(sqlite);
    const response = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(response.statusCode).toBe(404);
    expect(response.body).toBe((await unknownPath(t)).body);
  });

  it("answers the site's 404 to a wrong or missing token, and the figures to the right one", async () => {
    t = await startApp(sqlite, { METRICS_TOKEN: TOKEN });
    const notFound = await unknownPath(t);
    for (const headers of [
      {},
      { authorization: `Bearer ${TOKEN.slice(0, -1)}x` },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: TOKEN },
    ]) {
      const response = await t.app.inject({ method: "GET", url: "/metrics", headers });
      expect(response.statusCode).toBe(404);
      expect(response.headers["content-type"]).toBe(notFound.headers["content-type"]);
      expect(response.body).toBe(notFound.body);
    }
    const served = await t.app.inject({ method: "GET", url: "/metrics", headers: WITH_TOKEN });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(served.body).toContain("# TYPE site_http_request_duration_seconds histogram");
  });

  /** The lines the app logged, read. */
  const logLines = (app: TestApp) =>
    app.logs.map((line) => JSON.parse(line) as { level: number; msg: string; address?: string });

  /** A port nothing listens on: opened on the loopback and closed again. */
  async function freePort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  it.each(["0.0.0.0", "::", "203.0.113.5", "metrics.internal"])(
    "does not open METRICS_PORT on %s without METRICS_TOKEN, and says why at start",
    async (host) => {
      const port = await freePort();
      t = await startApp(sqlite, { METRICS_PORT: String(port), METRICS_HOST: host });
      const lines = logLines(t);
      expect(lines.filter((line) => line.msg === unguardedMetricsMessage(host))).toEqual([
        expect.objectContaining({ level: 40 }),
      ]);
      expect(lines.some((line) => line.msg === METRICS_SERVED_MESSAGE)).toBe(false);
      await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
      const onSite = await t.app.inject({ method: "GET", url: "/metrics" });
      expect(onSite.statusCode).toBe(404);
      expect(onSite.body).toBe((await unknownPath(t)).body);
    },
  );

  it("serves METRICS_PORT beyond the loopback to the token's bearer alone", async () => {
    t = await startApp(sqlite, {
      METRICS_PORT: "0",
      METRICS_HOST: "0.0.0.0",
      METRICS_TOKEN: TOKEN,
    });
    const lines = logLines(t);
    const served = lines.find((line) => line.msg === METRICS_SERVED_MESSAGE) as
      | { address: string; port: number }
      | undefined;
    expect(served?.address).toBe("0.0.0.0");
    expect(lines.some((line) => line.msg === unguardedMetricsMessage("0.0.0.0"))).toBe(false);
    const url = `http://127.0.0.1:${served?.port}/metrics`;
    expect((await fetch(url)).status).toBe(404);
    expect((await fetch(url, { headers: WITH_TOKEN })).status).toBe(200);
  });

  it("serves METRICS_PORT on the loopback without the token, but not to a request a proxy forwarded", async () => {
    t = await startApp(sqlite, { METRICS_PORT: "0", METRICS_HOST: "localhost" });
    const served = logLines(t).find((line) => line.msg === METRICS_SERVED_MESSAGE) as
      | { address: string; port: number }
      | undefined;
    const host = served?.address.includes(":") ? `[${served.address}]` : served?.address;
    const url = `http://${host}:${served?.port}/metrics`;
    expect((await fetch(url)).status).toBe(200);
    const forwarded: Record<string, string>[] = [
      { "x-forwarded-for": "198.51.100.7" },
      { forwarded: "for=198.51.100.7;proto=https" },
      { "x-real-ip": "198.51.100.7" },
    ];
    for (const headers of forwarded) {
      const response = await fetch(url, { headers });
      expect(response.status).toBe(404);
      expect(await response.text()).toBe("Not found\n");
    }
  });

  it.each([
    ["127.0.0.1", true],
    ["127.8.9.10", true],
    ["::1", true],
    ["0:0:0:0:0:0:0:1", true],
    ["::ffff:127.0.0.1", true],
    ["localhost", true],
    ["LOCALHOST", true],
    ["0.0.0.0", false],
    ["::", false],
    ["128.0.0.1", false],
    ["10.0.0.1", false],
    ["::ffff:10.0.0.1", false],
    ["203.0.113.5", false],
    ["2001:db8::1", false],
    ["metrics.internal", false],
    ["localhost.example", false],
  ])("counts %s as the loopback: %s", (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });

  it("serves them on METRICS_PORT, and not on the site's port", async () => {
    t = await startApp(sqlite, { METRICS_PORT: "0" });
    const served = t.logs
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === METRICS_SERVED_MESSAGE);
    expect(served?.address).toBe("127.0.0.1");
    const origin = `http://127.0.0.1:${served?.port}`;
    const response = await fetch(`${origin}/metrics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("site_outbox_oldest_pending_age_seconds");
    expect((await fetch(`${origin}/`)).status).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(404);
    await t.close();
    t = undefined;
    await vi.waitFor(async () => {
      await expect(fetch(`${origin}/metrics`)).rejects.toThrow();
    });
  });
});
