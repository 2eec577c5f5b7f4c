/**
 * Counting the audience on the server (ADR 051), on both engines, with a
 * clock of the test's: a page sent whole or as a 304 and a client-side
 * navigation's beacon are counted, with the visit's source, UTM tags,
 * device and browser; crawlers, prefetches, DNT / GPC, the console and a
 * signed-in member of the firm are not. Each day has its own salt (no
 * visitor spans two days) and a salt past 48 hours is deleted; counts reach
 * the database only with a flush, and two instances on one database add up.
 * What an outsider can add is bounded (ADR 058): a page counts under its
 * route's path and only when asked of the site's own Host, one address adds
 * a few views a minute and a few visitors a day, and each dimension lets
 * in at most AUDIENCE_VALUES_PER_DAY values a day across restarts and
 * instances.
 */
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../../../test/support/app.ts";
import { createAccount, signIn } from "../../../../test/support/console.ts";
import { ENGINES } from "../../../../test/support/engines.ts";
import { REDIS_SKIP_REASON, REDIS_URL, redisEnv } from "../../../../test/support/redis.ts";
import { ACCOUNT_PATHS } from "../../../shared/admin/account.ts";
import { AUTH_PATHS } from "../../../shared/admin/auth.ts";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import { admitValues } from "./caps.ts";
import { visitorHash } from "./salts.ts";

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const DAY_ONE = "2026-11-27";
const START = Date.parse(`${DAY_ONE}T10:00:00.000Z`);
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
/** A browser build of its own for each `n`, as a flood of made-up user agents sends. */
const agentNumber = (n: number) => CHROME.replace("131.0.0.0", `131.0.${n}.0`);

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const GOOGLEBOT =
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/131.0.0.0 Safari/537.36";
/** Written every 5 minutes by itself: here only when the test flushes. */
const ENV = { AUDIENCE_FLUSH_SECONDS: "300", PUBLIC_ORIGIN: "https://meridian.example" };

type Figures = Record<string, [number, number, number]>;

/** Every stored row of `day`, as "dimension value" → [views, visits, visitors]. */
async function figures(database: DatabaseHandle, day: string): Promise<Figures> {
  const rows = await database.db
    .selectFrom("audience_days")
    .selectAll()
    .where("day", "=", day)
    .execute();
  return Object.fromEntries(
    rows.map((row) => [
      `${row.dimension} ${row.value}`,
      [Number(row.views), Number(row.visits), Number(row.visitors)],
    ]),
  );
}

/**
 * The visitor's address in the test under way: each test has its own, so
 * none finds a visitor another test already counted that day.
 */
let address = "203.0.113.1";
let addresses = 1;
function nextAddress(): string {
  addresses += 1;
  address = `203.0.113.${addresses}`;
  return address;
}

interface Visit {
  ip?: string;
  agent?: string;
  headers?: Record<string, string>;
}

/** The site's own Host (PUBLIC_ORIGIN's): a view asking for another is not counted. */
const HOST = new URL(ENV.PUBLIC_ORIGIN).host;

function view(t: TestApp, url: string, { ip = address, agent = CHROME, headers = {} }: Visit = {}) {
  return t.app.inject({
    method: "GET",
    url,
    remoteAddress: ip,
    headers: { host: HOST, "user-agent": agent, ...headers },
  });
}

function beacon(
  t: TestApp,
  path: string,
  { ip = address, agent = CHROME, headers = {} }: Visit = {},
) {
  return t.app.inject({
    method: "POST",
    url: "/api/v1/page-view",
    remoteAddress: ip,
    headers: {
      host: HOST,
      "user-agent": agent,
      "content-type": "text/plain;charset=UTF-8",
      ...headers,
    },
    payload: path,
  });
}

describe.each(ENGINES)("counting the audience on $engine", (engine) => {
  let clock = START;
  let t: TestApp;

  // Each test has an app and a database of its own: it starts from empty
  // figures, and no other test's salts, day's salt in memory, visits or
  // daily purge day are left for it, whatever its clock says.
  beforeEach(async () => {
    nextAddress();
    clock = START;
    t = await startApp(engine, ENV, { now: () => clock });
  });
  afterEach(async () => {
    await t?.close();
  });

  it("counts a page sent, its 304 and a navigation's beacon, with the visit's source", async () => {
    clock = START;
    const first = await view(
      t,
      "/weare?utm_source=Newsletter-Co&utm_medium=cpc&utm_campaign=spring",
      {
        headers: { referer: "https://www.google.com/" },
      },
    );
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    clock += 60_000;
    const again = await view(t, "/weare", { headers: { "if-none-match": etag } });
    expect(again.statusCode).toBe(304);
    clock += 60_000;
    const navigation = await beacon(t, "/contact-us");
    expect(navigation.statusCode).toBe(204);
    expect(navigation.body).toBe("");

    expect(await figures(t.database, DAY_ONE)).toEqual({});
    await t.app.audience.flush();
    expect(await figures(t.database, DAY_ONE)).toEqual({
      "total ": [3, 1, 1],
      "page /weare": [2, 1, 1],
      "page /contact-us": [1, 1, 1],
      "entry /weare": [3, 1, 1],
      "channel search": [3, 1, 1],
      "referrer google.com": [3, 1, 1],
      "utm_source newsletter-co": [3, 1, 1],
      "utm_medium cpc": [3, 1, 1],
      "utm_campaign spring": [3, 1, 1],
      "device desktop": [3, 1, 1],
      "browser Chrome": [3, 1, 1],
      "funnel landing": [3, 1, 1],
      "funnel contact": [1, 1, 1],
      "hour 10": [3, 1, 1],
    });
  });

  it("starts a new visit after 30 minutes away, and tells visitors apart", async () => {
    clock = START + HOUR_MS;
    await view(t, "/?utm_source=insight&utm_medium=email&utm_campaign=issue-12", {
      headers: { referer: "https://mail.google.com/" },
    });
    clock += 29 * 60_000;
    await view(t, "/weare");
    clock += 31 * 60_000;
    await view(t, "/weare", { headers: { referer: "https://meridian.example/" } });
    await view(t, "/", {
      ip: "198.51.100.9",
      agent: IPHONE,
      headers: { referer: "https://t.co/x" },
    });
    await t.app.audience.flush();
    const day = await figures(t.database, DAY_ONE);
    expect(day["total "]).toEqual([4, 3, 2]);
    expect(day["page /weare"]).toEqual([2, 2, 1]);
    expect(day["insight issue-12"]).toEqual([2, 1, 1]);
    expect(day["channel email"]).toEqual([2, 1, 1]);
    // Its own site referring brings no one new: a direct visit.
    expect(day["channel direct"]).toEqual([1, 1, 1]);
    expect(day["referrer "]).toEqual([1, 1, 1]);
    expect(day["channel social"]).toEqual([1, 1, 1]);
    expect(day["referrer t.co"]).toEqual([1, 1, 1]);
    expect(day["device mobile"]).toEqual([1, 1, 1]);
    expect(day["browser Mobile Safari"]).toEqual([1, 1, 1]);
    expect(day["entry /"]).toEqual([3, 2, 2]);
    // Each UTC hour counts the views in it, and a visit (and a visitor) once in each hour it was in.
    expect(day["hour 11"]).toEqual([2, 1, 1]);
    expect(day["hour 12"]).toEqual([2, 2, 2]);
  });

  it("says how many visitors were on the site in the last 30 minutes, counted ones only", async () => {
    clock = START + 3 * HOUR_MS;
    await view(t, "/");
    await view(t, "/weare", { ip: "198.51.100.21", agent: IPHONE });
    await view(t, "/", { ip: "198.51.100.22", agent: GOOGLEBOT });
    await view(t, "/", { ip: "198.51.100.23", headers: { dnt: "1" } });
    clock += 20 * 60_000;
    await view(t, "/wedo", { ip: "198.51.100.24" });
    await t.app.audience.flush();
    expect(await t.app.audience.recentVisitors()).toBe(3);
    // Fifteen minutes on, the first two were last seen 35 minutes ago.
    clock += 15 * 60_000;
    expect(await t.app.audience.recentVisitors()).toBe(1);
    await view(t, "/contact-us");
    await t.app.audience.flush();
    expect(await t.app.audience.recentVisitors()).toBe(2);
  });

  it("starts a new visit when a view comes from another site or a tagged link, even within 30 minutes", async () => {
    clock = START + 2 * HOUR_MS;
    const reader = { ip: "198.51.100.77" };
    await view(t, "/weare", reader);
    clock += 60_000;
    await view(t, "/wedo?utm_source=linkedin&utm_medium=social&utm_campaign=autumn", reader);
    clock += 60_000;
    await view(t, "/weserve", { ...reader, headers: { referer: "https://www.bing.com/" } });
    clock += 60_000;
    // A link inside the site is the same visit.
    await view(t, "/contact-us", { ...reader, headers: { referer: "https://meridian.example/" } });
    await t.app.audience.flush();
    const day = await figures(t.database, DAY_ONE);
    expect(day["utm_campaign autumn"]).toEqual([1, 1, 1]);
    expect(day["entry /wedo"]?.[1]).toBe(1);
    expect(day["referrer bing.com"]).toEqual([2, 1, 1]);
    expect(day["entry /weserve"]).toEqual([2, 1, 1]);
  });

  it("counts no crawler, prefetch, DNT or GPC, console, API answer or unknown beacon", async () => {
    clock = START + 4 * HOUR_MS;
    const refused: Visit[] = [
      { agent: GOOGLEBOT },
      { agent: "" },
      { headers: { "sec-purpose": "prefetch" } },
      { headers: { "sec-purpose": "prefetch;prerender" } },
      { headers: { purpose: "prefetch" } },
      { headers: { dnt: "1" } },
      { headers: { "sec-gpc": "1" } },
    ];
    for (const visit of refused) {
      expect((await view(t, "/weare", visit)).statusCode).toBe(200);
      expect((await beacon(t, "/weare", visit)).statusCode).toBe(204);
    }
    const [study] = await t.app.content.caseStudies();
    expect((await beacon(t, "/weserve/case-studies/no-such-study")).statusCode).toBe(204);
    expect((await beacon(t, "/insight/no-such-issue")).statusCode).toBe(204);
    await view(t, "/admin");
    await view(t, "/api/v1/teams/");
    await view(t, "/no-such-page");
    await t.app.inject({ method: "HEAD", url: "/weare", headers: { "user-agent": CHROME } });
    expect((await beacon(t, "/api/v1/teams/")).statusCode).toBe(204);
    expect((await beacon(t, "/no-such-page")).statusCode).toBe(204);
    expect(
      (await beacon(t, "/weare", { headers: { "sec-fetch-site": "cross-site" } })).statusCode,
    ).toBe(204);
    expect(
      (await beacon(t, "/weare", { headers: { origin: "https://elsewhere.example" } })).statusCode,
    ).toBe(204);
    await t.app.audience.flush();
    expect(await figures(t.database, DAY_ONE)).toEqual({});

    // A case study the site has is a page like any other.
    await beacon(t, `/weserve/case-studies/${study?.slug}`);
    await t.app.audience.flush();
    expect(
      (await figures(t.database, DAY_ONE))[`page /weserve/case-studies/${study?.slug}`],
    ).toEqual([1, 1, 1]);
  });

  it("counts no signed-in member of the firm, and counts them again once signed out", async () => {
    clock = START + 5 * HOUR_MS;
    await createAccount(t.database, "viewer", "counted-not@firm.example");
    const staff = await signIn(t.app, "counted-not@firm.example");
    const consoleAnswer = await staff.request("GET", ACCOUNT_PATHS.account);
    expect(consoleAnswer.statusCode).toBe(200);
    const mark = consoleAnswer.cookies.find((c) => c.name === "console_staff");
    expect(mark?.path).toBe("/");
    expect(mark?.httpOnly).toBe(true);
    const cookie = `console_staff=${mark?.value}`;
    await view(t, "/weare", { headers: { cookie } });
    await beacon(t, "/contact-us", { headers: { cookie } });
    await t.app.audience.flush();
    expect(await figures(t.database, DAY_ONE)).toEqual({});

    // A mark this server did not sign counts for nothing.
    await view(t, "/weare", {
      ip: "192.0.2.1",
      headers: { cookie: `console_staff=${"0".repeat(64)}.${"A".repeat(43)}` },
    });
    await t.app.audience.flush();
    expect((await figures(t.database, DAY_ONE))["total "]).toEqual([1, 1, 1]);

    const signOut = await staff.request("DELETE", AUTH_PATHS.session);
    expect(signOut.statusCode).toBe(204);
    expect(signOut.cookies.find((c) => c.name === "console_staff")?.value).toBe("");
    // The session is gone: the same mark, still in a browser, is checked afresh after a minute.
    clock += 61_000;
    await view(t, "/weare", { headers: { cookie } });
    await t.app.audience.flush();
    expect((await figures(t.database, DAY_ONE))["total "]).toEqual([2, 2, 2]);
  });

  it("gives each day its own salt, so no visitor spans two days, and deletes salts past 48 hours", async () => {
    const dayTwo = "2026-11-28";
    clock = Date.parse(`${DAY_ONE}T23:50:00.000Z`);
    await view(t, "/weare", { headers: { referer: "https://www.bing.com/" } });
    clock = Date.parse(`${dayTwo}T00:05:00.000Z`);
    await view(t, "/weare");
    await t.app.audience.flush();
    expect((await figures(t.database, DAY_ONE))["total "]).toEqual([1, 1, 1]);
    // Fifteen minutes later, but a new day: a new visit by a visitor not seen before.
    expect((await figures(t.database, dayTwo))["total "]).toEqual([1, 1, 1]);
    expect((await figures(t.database, dayTwo))["channel direct"]).toEqual([1, 1, 1]);

    const salts = await t.database.db.selectFrom("audience_salts").selectAll().execute();
    const one = salts.find((row) => row.day === DAY_ONE);
    const two = salts.find((row) => row.day === dayTwo);
    expect(one?.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(two?.salt).toMatch(/^[0-9a-f]{64}$/);
    const hashOn = (salt: string) => visitorHash(Buffer.from(salt, "hex"), address, CHROME);
    expect(hashOn(one?.salt as string)).not.toBe(hashOn(two?.salt as string));

    // Nothing stored names the visitor: no address, user agent or hash in any row.
    const stored = JSON.stringify(
      await t.database.db.selectFrom("audience_days").selectAll().execute(),
    );
    for (const secret of [
      address,
      "Windows NT",
      hashOn(one?.salt as string),
      hashOn(two?.salt as string),
    ]) {
      expect(stored).not.toContain(secret);
    }

    // The daily purge of a later day: a salt made more than 48 hours before goes.
    clock = Date.parse(`${dayTwo}T00:00:00.000Z`) + 2 * DAY_MS;
    await t.database.db
      .updateTable("audience_salts")
      .set({ created_at: new Date(clock - 48 * HOUR_MS + 60_000).toISOString() })
      .where("day", "=", dayTwo)
      .execute();
    expect(await t.app.dailyPurge.runToday()).toBe(true);
    const left = await t.database.db.selectFrom("audience_salts").select("day").execute();
    expect(left.map((row) => row.day)).toEqual([dayTwo]);
    clock += 2 * 60_000;
    await t.database.db
      .updateTable("site_meta")
      .set({ value: "2000-01-01" })
      .where("key", "=", "daily_purge_day")
      .execute();
    expect(await t.app.dailyPurge.runToday()).toBe(true);
    expect(await t.database.db.selectFrom("audience_salts").select("day").execute()).toEqual([]);
  });

  it("keeps the rollups AUDIENCE_RETENTION_MONTHS (25 by default) and no longer", async () => {
    clock = Date.parse("2026-12-15T01:00:00.000Z");
    const row = (day: string) => ({
      day,
      dimension: "total" as const,
      value: "",
      views: 1,
      visits: 1,
      visitors: 1,
    });
    await t.database.db
      .insertInto("audience_days")
      .values([row("2024-11-14"), row("2024-11-15"), row("2026-12-14")])
      .execute();
    const cap = (day: string) => ({ day, dimension: "referrer" as const, max_values: 5 });
    await t.database.db
      .insertInto("audience_value_caps")
      .values([cap("2024-11-14"), cap("2024-11-15")])
      .execute();
    await t.database.db
      .updateTable("site_meta")
      .set({ value: "2000-01-01" })
      .where("key", "=", "daily_purge_day")
      .execute();
    expect(await t.app.dailyPurge.runToday()).toBe(true);
    const left = await t.database.db
      .selectFrom("audience_days")
      .select("day")
      .orderBy("day")
      .execute();
    expect(left.map((kept) => kept.day)).toEqual(["2024-11-15", "2026-12-14"]);
    const caps = await t.database.db.selectFrom("audience_value_caps").select("day").execute();
    expect(caps.map((kept) => kept.day)).toEqual(["2024-11-15"]);
  });
});

describe.each(ENGINES)("the audience counts of two instances on $engine", (engine) => {
  const clock = START;
  let first: TestApp;
  let second: TestApp;

  // Each test has two instances on a database of its own, so it finds no
  // rows but those it wrote.
  beforeEach(async () => {
    first = await startApp(engine, ENV, { now: () => clock });
    second = await startApp(engine, ENV, { now: () => clock, shared: first.testDb });
  });
  afterEach(async () => {
    await second?.close();
    await first?.close();
  });

  it("reach the database only with a flush, share one salt, and add up", async () => {
    await view(first, "/weare", { ip: "192.0.2.10" });
    await view(second, "/weare", { ip: "192.0.2.11" });
    await view(second, "/", { ip: "192.0.2.11" });
    expect(await figures(first.database, DAY_ONE)).toEqual({});
    await first.app.audience.flush();
    expect((await figures(first.database, DAY_ONE))["total "]).toEqual([1, 1, 1]);
    // What the second holds is what a crash of it now would lose: one flush interval's counting.
    await second.app.audience.flush();
    expect((await figures(first.database, DAY_ONE))["total "]).toEqual([3, 2, 2]);
    expect((await figures(first.database, DAY_ONE))["page /weare"]).toEqual([2, 2, 2]);
    const salts = await first.database.db.selectFrom("audience_salts").selectAll().execute();
    expect(salts.map((row) => row.day)).toEqual([DAY_ONE]);
    // A flush with nothing new adds nothing.
    await first.app.audience.flush();
    expect((await figures(first.database, DAY_ONE))["total "]).toEqual([3, 2, 2]);
  });

  it("writes what it counted when the server closes", async () => {
    // Another instance's figures are in the database already: the third's add to them.
    await view(first, "/weare", { ip: "192.0.2.10" });
    await first.app.audience.flush();
    expect((await figures(first.database, DAY_ONE))["total "]).toEqual([1, 1, 1]);
    const third = await startApp(engine, ENV, { now: () => clock, shared: first.testDb });
    await view(third, "/weare", { ip: "192.0.2.12" });
    await third.close();
    expect((await figures(first.database, DAY_ONE))["total "]).toEqual([2, 2, 2]);
  });
});

/** Every stored row of `day` of one dimension, as value → views. */
async function valuesOf(database: DatabaseHandle, day: string, dimension: string) {
  const rows = await figures(database, day);
  return Object.fromEntries(
    Object.entries(rows)
      .filter(([key]) => key.startsWith(`${dimension} `))
      .map(([key, [views]]) => [key.slice(dimension.length + 1), views]),
  );
}

/**
 * A GET of `target` exactly as written, over a real connection: a fragment,
 * an odd case or a percent-encoding reach the server as sent, as an
 * attacker's client sends them (an injected request would be tidied).
 */
function rawView(port: number, target: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; etag: string }>((resolve, reject) => {
    const sent = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path: target,
        headers: { host: HOST, "user-agent": CHROME, ...headers },
      },
      (answer) => {
        answer.resume();
        answer.on("end", () =>
          resolve({ status: answer.statusCode ?? 0, etag: String(answer.headers.etag ?? "") }),
        );
      },
    );
    sent.on("error", reject);
    sent.end();
  });
}

describe.each(ENGINES)("what counts as a page view on $engine", (engine) => {
  const clock = START;
  let t: TestApp;

  beforeEach(async () => {
    t = await startApp(engine, ENV, { now: () => clock });
  });
  afterEach(async () => {
    await t?.close();
  });

  it("counts a page under its route's path, never the request's own target", async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as AddressInfo;
    const [study] = await t.app.content.caseStudies();
    const slug = study?.slug ?? "";
    const served: [string, number][] = [
      ["/#anything", 200],
      ["/weare#made-up", 200],
      ["/we%61re", 200],
      ["/%77eare?x=1", 200],
      ["/weare?made-up", 200],
      [`/weserve/case-studies/%${slug.charCodeAt(0).toString(16)}${slug.slice(1)}`, 200],
      ["/WeAre/", 301],
      ["/weare/", 301],
      ["/no-such-page", 404],
      ["/weserve/case-studies/no-such-study", 404],
    ];
    for (const [n, [target, status]] of served.entries()) {
      // Each its own visitor, so each begins a visit and names its entry page too.
      const answer = await rawView(port, target, { "user-agent": agentNumber(n) });
      expect(answer.status, target).toBe(status);
    }
    await t.app.audience.flush();
    const pages = { "/": 1, "/weare": 4, [`/weserve/case-studies/${slug}`]: 1 };
    expect(await valuesOf(t.database, DAY_ONE, "page")).toEqual(pages);
    expect(Object.keys(await valuesOf(t.database, DAY_ONE, "entry")).sort()).toEqual(
      Object.keys(pages).sort(),
    );

    // An unknown issue asked again with the ETag of its not-found page is still not found.
    const unknown = await rawView(port, "/insight/made-up-issue");
    expect(unknown.status).toBe(404);
    const again = await rawView(port, "/insight/made-up-issue", { "if-none-match": unknown.etag });
    expect(again.status).toBe(404);
    await t.app.audience.flush();
    expect(await valuesOf(t.database, DAY_ONE, "page")).toEqual(pages);
  });

  it("counts only a view asked of the site's own host, in any case and on any port", async () => {
    for (const host of ["elsewhere.example", "meridian.example.attacker.example", "127.0.0.1"]) {
      expect((await view(t, "/weare", { headers: { host } })).statusCode).toBe(200);
      expect((await beacon(t, "/weare", { headers: { host } })).statusCode).toBe(204);
    }
    await t.app.audience.flush();
    expect(await figures(t.database, DAY_ONE)).toEqual({});

    await view(t, "/weare", { headers: { host: "MERIDIAN.example" } });
    await view(t, "/weare", { headers: { host: "meridian.example:8443" } });
    await t.app.audience.flush();
    expect((await figures(t.database, DAY_ONE))["total "]).toEqual([2, 1, 1]);
  });
});

describe.each(ENGINES)("the site's host behind a proxy on $engine", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(engine, { ...ENV, TRUST_PROXY: "127.0.0.1" }, { now: () => START });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("is the host the proxy passes on, and a client's own X-Forwarded-Host counts for nothing", async () => {
    const through = (ip: string, forwardedHost: string) =>
      t.app.inject({
        method: "GET",
        url: "/weare",
        remoteAddress: ip,
        headers: {
          host: "127.0.0.1:3000",
          "x-forwarded-host": forwardedHost,
          "x-forwarded-for": "198.51.100.30",
          "user-agent": CHROME,
        },
      });
    // The proxy's own Host is the upstream's; the name asked is in X-Forwarded-Host.
    expect((await through("127.0.0.1", "meridian.example")).statusCode).toBe(200);
    expect((await through("127.0.0.1", "elsewhere.example")).statusCode).toBe(200);
    // Not from the proxy: its X-Forwarded-Host is not believed, and its Host is not the site's.
    expect((await through("203.0.113.99", "meridian.example")).statusCode).toBe(200);
    await t.app.audience.flush();
    expect((await figures(t.database, DAY_ONE))["total "]).toEqual([1, 1, 1]);
  });
});

/** What one address may add, kept small so a test reaches it in a few requests. */
const PER_ADDRESS = { AUDIENCE_VIEWS_PER_MINUTE: "5", AUDIENCE_VISITORS_PER_ADDRESS: "3" };

describe.each(ENGINES)("what one address can add on $engine", (engine) => {
  let clock = START;
  let t: TestApp;

  beforeEach(async () => {
    nextAddress();
    clock = START;
    t = await startApp(engine, { ...ENV, ...PER_ADDRESS }, { now: () => clock });
  });
  afterEach(async () => {
    await t?.close();
  });

  it("counts at most AUDIENCE_VIEWS_PER_MINUTE views a minute from one address (IPv6 by its /64)", async () => {
    for (let i = 0; i < 8; i += 1) await view(t, "/weare");
    await t.app.audience.flush();
    expect((await figures(t.database, DAY_ONE))["total "]?.[0]).toBe(5);
    // The next minute counts again, up to the number.
    clock += 60_000;
    for (let i = 0; i < 8; i += 1) await view(t, "/weare");
    await t.app.audience.flush();
    expect((await figures(t.database, DAY_ONE))["total "]?.[0]).toBe(10);

    // One /64 is one subscriber's: its addresses share the number.
    clock += 60_000;
    for (let i = 1; i <= 8; i += 1) await view(t, "/weare", { ip: `2001:db8:5:7::${i}` });
    await t.app.audience.flush();
    expect((await figures(t.database, DAY_ONE))["total "]?.[0]).toBe(15);
  });

  it("counts at most AUDIENCE_VISITORS_PER_ADDRESS visitors a day from one address, whatever its user agents", async () => {
    for (let i = 0; i < 12; i += 1) {
      // A minute apart, so the views' own number does not stop them first.
      clock += 60_000;
      await view(t, "/weare", { agent: agentNumber(i) });
    }
    // Another address has its own.
    await view(t, "/weare", { ip: "198.51.100.71" });
    await t.app.audience.flush();
    // Three browsers are visitors; the further ones' views count, as no visit or visitor.
    expect((await figures(t.database, DAY_ONE))["total "]).toEqual([13, 4, 4]);
    expect((await figures(t.database, DAY_ONE))["page /weare"]).toEqual([13, 4, 4]);
  });
});

describe.skipIf(!REDIS_URL).each(ENGINES)(
  "one address's numbers shared through Redis by two instances on $engine",
  (engine) => {
    let clock = START;
    let first: TestApp;
    let second: TestApp;

    beforeAll(async () => {
      const env = { ...ENV, ...PER_ADDRESS, ...redisEnv(REDIS_URL as string) };
      first = await startApp(engine, env, { now: () => clock });
      second = await startApp(engine, env, { now: () => clock, shared: first.testDb });
    });
    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    it("hold across both: views a minute and visitors a day", async () => {
      clock = START;
      const ip = "192.0.2.77";
      // Each view's counting reaches Redis a moment after its answer; the flush waits for it.
      for (let i = 0; i < 4; i += 1) {
        await view(first, "/weare", { ip });
        await first.app.audience.flush();
        await view(second, "/weare", { ip });
        await second.app.audience.flush();
      }
      expect((await figures(first.database, DAY_ONE))["total "]?.[0]).toBe(5);

      const other = "192.0.2.78";
      for (let i = 0; i < 8; i += 1) {
        clock += 60_000;
        const instance = i % 2 === 0 ? first : second;
        await view(instance, "/weare", { ip: other, agent: agentNumber(i) });
        await instance.app.audience.flush();
      }
      // The first address's one visitor, and the second's three; all its views count.
      expect((await figures(first.database, DAY_ONE))["total "]).toEqual([13, 4, 4]);
    });
  },
);

/** A dimension's values a day, kept small so a test floods it in a few requests. */
const CAP = 3;

describe.each(ENGINES)("the day's values, capped in the database, on $engine", (engine) => {
  const clock = START;
  let first: TestApp;
  let second: TestApp;
  const env = { ...ENV, AUDIENCE_VALUES_PER_DAY: String(CAP) };

  beforeEach(async () => {
    nextAddress();
    first = await startApp(engine, env, { now: () => clock });
    second = await startApp(engine, env, { now: () => clock, shared: first.testDb });
  });
  afterEach(async () => {
    await second?.close();
    await first?.close();
  });

  /** A visit from `site`, from an address of its own, so no address's number stops it. */
  let visits = 0;
  const fromSite = (t: TestApp, site: string) => {
    visits += 1;
    return view(t, "/weare", {
      ip: `198.18.${visits >> 8}.${visits & 255}`,
      headers: { referer: `https://${site}/` },
    });
  };

  it("let in no more than AUDIENCE_VALUES_PER_DAY across two instances and a restart", async () => {
    await fromSite(first, "one.example");
    await fromSite(first, "two.example");
    await first.app.audience.flush();
    await fromSite(second, "three.example");
    await fromSite(second, "four.example");
    await fromSite(second, "one.example");
    await second.app.audience.flush();
    // A restart: what the process held is gone, the database's count is not.
    await second.close();
    second = await startApp(engine, env, { now: () => clock, shared: first.testDb });
    await fromSite(second, "five.example");
    await fromSite(second, "two.example");
    await second.app.audience.flush();

    expect(await valuesOf(first.database, DAY_ONE, "referrer")).toEqual({
      "one.example": 2,
      "two.example": 2,
      "three.example": 1,
      "(other)": 2,
    });
    const caps = await first.database.db
      .selectFrom("audience_value_caps")
      .selectAll()
      .where("dimension", "=", "referrer")
      .execute();
    expect(caps).toEqual([
      { day: DAY_ONE, dimension: "referrer", max_values: CAP, admitted: CAP, overflowed: 1 },
    ]);
  });

  it("let in no more when both flush at once", async () => {
    for (let i = 0; i < 6; i += 1)
      await fromSite(i % 2 === 0 ? first : second, `at-once-${i}.example`);
    await Promise.all([first.app.audience.flush(), second.app.audience.flush()]);
    const values = await valuesOf(first.database, DAY_ONE, "referrer");
    expect(Object.keys(values).filter((value) => value !== "(other)")).toHaveLength(CAP);
    expect(Object.values(values).reduce((sum, views) => sum + views, 0)).toBe(6);
  });

  it("take no room for a value sent as the other value's own name", async () => {
    await view(first, "/weare?utm_source=(other)");
    await first.app.audience.flush();
    expect(await valuesOf(first.database, DAY_ONE, "utm_source")).toEqual({ "(other)": 1 });
    const overflowed = await first.database.db
      .selectFrom("audience_value_caps")
      .select("overflowed")
      .where("dimension", "=", "utm_source")
      .execute();
    expect(overflowed.map((row) => row.overflowed)).not.toContain(1);
  });
});

describe.each(ENGINES)("the room of a day's values on $engine", (engine) => {
  it("is never overdrawn by askers at once", async () => {
    const t = await startApp(engine, ENV);
    try {
      // Twenty askers at once, each with values of its own, through the pool's connections.
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, asker) =>
          admitValues(t.database.db, DAY_ONE, "utm_campaign", [`a${asker}-1`, `a${asker}-2`], 5),
        ),
      );
      const admitted = answers.flatMap((answer) => answer.admitted);
      expect(admitted).toHaveLength(5);
      const row = await t.database.db
        .selectFrom("audience_value_caps")
        .select(["admitted", "max_values"])
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ admitted: 5, max_values: 5 });
      // A value let in already takes no more room, however often it is asked about.
      const again = await admitValues(t.database.db, DAY_ONE, "utm_campaign", [], 5);
      expect(again).toEqual({ admitted: [], full: false });
    } finally {
      await t.close();
    }
  });
});

describe.each(ENGINES)("with AUDIENCE_COUNTING=off on $engine", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(engine, { ...ENV, AUDIENCE_COUNTING: "off" });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("counts nothing and answers the beacon all the same", async () => {
    expect((await view(t, "/weare")).statusCode).toBe(200);
    expect((await beacon(t, "/weare")).statusCode).toBe(204);
    await t.app.audience.flush();
    expect(t.app.audience.counting).toBe(false);
    expect(await t.app.audience.recentVisitors()).toBe(0);
    expect(await t.database.db.selectFrom("audience_days").selectAll().execute()).toEqual([]);
    expect(await t.database.db.selectFrom("audience_salts").selectAll().execute()).toEqual([]);
  });
});

if (!REDIS_URL) console.warn(REDIS_SKIP_REASON);

describe.skipIf(!REDIS_URL).each(ENGINES)(
  "visits shared through Redis by two instances on $engine",
  (engine) => {
    let clock = START;
    let first: TestApp;
    let second: TestApp;

    beforeAll(async () => {
      const env = { ...ENV, ...redisEnv(REDIS_URL as string) };
      first = await startApp(engine, env, { now: () => clock });
      second = await startApp(engine, env, { now: () => clock, shared: first.testDb });
    });
    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    it("count one visitor's views on either instance as one visit", async () => {
      clock = START;
      await view(first, "/weare?utm_source=insight&utm_medium=email&utm_campaign=issue-3", {
        ip: "192.0.2.50",
      });
      // Each view's state reaches Redis a moment after its answer; a person's
      // next click comes later than that, the test's next request not.
      await first.app.audience.flush();
      clock += 10 * 60_000;
      await view(second, "/contact-us", { ip: "192.0.2.50" });
      await second.app.audience.flush();
      clock += 5 * 60_000;
      await beacon(first, "/weare", { ip: "192.0.2.50" });
      await first.app.audience.flush();
      const day = await figures(first.database, DAY_ONE);
      expect(day["total "]).toEqual([3, 1, 1]);
      expect(day["page /weare"]).toEqual([2, 1, 1]);
      expect(day["insight issue-3"]).toEqual([3, 1, 1]);
      expect(day["funnel contact"]).toEqual([1, 1, 1]);

      // Thirty minutes away on the other instance: a second visit by the same visitor.
      clock += 31 * 60_000;
      await view(second, "/", { ip: "192.0.2.50" });
      await second.app.audience.flush();
      expect((await figures(first.database, DAY_ONE))["total "]).toEqual([4, 2, 1]);
    });

    it("tell the same number of visitors of the last 30 minutes, whichever counted them", async () => {
      clock = START + 4 * HOUR_MS;
      await view(first, "/", { ip: "192.0.2.61" });
      await view(second, "/weare", { ip: "192.0.2.62" });
      await view(second, "/wedo", { ip: "192.0.2.61" });
      await Promise.all([first.app.audience.flush(), second.app.audience.flush()]);
      expect(await first.app.audience.recentVisitors()).toBe(2);
      expect(await second.app.audience.recentVisitors()).toBe(2);
      clock += 31 * 60_000;
      await view(first, "/", { ip: "192.0.2.63" });
      await first.app.audience.flush();
      expect(await second.app.audience.recentVisitors()).toBe(1);
    });
  },
);
