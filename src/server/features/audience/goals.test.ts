/**
 * The Audience area's goals, on both engines: the inquiry and the
 * subscription built in, and the pages an editor names, each reached by
 * the period's visits that viewed it (never more than the visits, so no
 * rate passes 100 %); a goal's page is refused, beside the field, when it
 * is no path, is one already or is one too many; a viewer reads them but
 * cannot change them; each change is audited. And the live figure's
 * route, which the counting tests fill.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../../../test/support/app.ts";
import { writeDays } from "../../../../test/support/audience-figures.ts";
import { type ConsoleClient, createAccount, signIn } from "../../../../test/support/console.ts";
import { ENGINES } from "../../../../test/support/engines.ts";
import { withQuery } from "../../../admin/api/client.ts";
import {
  AUDIENCE_PATHS,
  GOAL_PATH_MAX,
  GOAL_TEXTS,
  GOALS_MAX,
  type GoalsAnswer,
} from "../../../shared/admin/audience.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe.each(ENGINES)("the Audience area's goals, on $engine", (engine) => {
  let t: TestApp;
  let editor: ConsoleClient;
  let viewer: ConsoleClient;
  // A fixed clock, so every seeded day is in or out of the range for sure.
  const now = Date.parse("2026-11-20T12:00:00.000Z");

  beforeAll(async () => {
    t = await startApp(engine, {}, { now: () => now });
    await createAccount(t.database, "editor");
    await createAccount(t.database, "viewer");
    editor = await signIn(t.app, "editor@firm.example");
    viewer = await signIn(t.app, "viewer@firm.example");
    const today = dayOf(now);
    const yesterday = dayOf(now - DAY_MS);
    const longAgo = dayOf(now - 60 * DAY_MS);
    await writeDays(t.database, [
      {
        day: today,
        dimension: "total",
        visits: 60,
        conversions: 6,
        inquiries: 2,
        subscriptions: 4,
      },
      {
        day: yesterday,
        dimension: "total",
        visits: 40,
        conversions: 2,
        inquiries: 1,
        subscriptions: 1,
      },
      { day: today, dimension: "page", value: "/weserve", views: 30, visits: 15 },
      { day: yesterday, dimension: "page", value: "/weserve", views: 12, visits: 10 },
      { day: longAgo, dimension: "page", value: "/weserve", views: 99, visits: 99 },
      { day: today, dimension: "page", value: "/contact-us", views: 50, visits: 40 },
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function goals(client = viewer): Promise<GoalsAnswer> {
    const answer = await client.request("GET", withQuery(AUDIENCE_PATHS.goals, { range: "7d" }));
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  }
  const add = (path: unknown, client = editor) =>
    client.request("POST", AUDIENCE_PATHS.goals, { path });

  it("tells a viewer how many visitors the last 30 minutes had: none, with no page viewed", async () => {
    const answer = await viewer.request("GET", AUDIENCE_PATHS.live);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ visitors: 0, counting: true });
  });

  it("counts the inquiry and the subscription as goals, built in", async () => {
    const answer = await goals();
    expect(answer.visits).toBe(100);
    expect(answer.goals).toEqual([
      { id: null, kind: "inquiry", path: null, reached: 3, rate: 0.03 },
      { id: null, kind: "subscription", path: null, reached: 5, rate: 0.05 },
    ]);
  });

  it("counts a page an editor names by the period's visits that viewed it, its past days too", async () => {
    const weserve = await add("/weserve");
    expect(weserve.statusCode, weserve.body).toBe(201);
    const contact = await add("  /contact-us/ ");
    expect(contact.json()).toMatchObject({ path: "/contact-us" });
    const unseen = await add("/insight/nobody-reads-this");
    expect(unseen.statusCode).toBe(201);
    const pages = (await goals()).goals.filter((goal) => goal.kind === "page");
    expect(pages.map(({ path, reached, rate }) => ({ path, reached, rate }))).toEqual([
      { path: "/weserve", reached: 25, rate: 0.25 },
      { path: "/contact-us", reached: 40, rate: 0.4 },
      { path: "/insight/nobody-reads-this", reached: 0, rate: 0 },
    ]);
    const audit = await t.database.db
      .selectFrom("audit_log")
      .select(["actor", "detail"])
      .where("action", "=", "audience-goal-added")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    expect(audit.actor).toBe("editor@firm.example");
    expect(JSON.parse(audit.detail ?? "{}")).toMatchObject({ path: "/weserve" });
  });

  it("refuses a page that is no path, or a goal already, beside the field", async () => {
    const cases: [unknown, string][] = [
      ["weserve", GOAL_TEXTS.pathSlash],
      ["/weserve?utm_source=x", GOAL_TEXTS.pathWhole],
      ["/weserve#top", GOAL_TEXTS.pathWhole],
      [`/${"a".repeat(GOAL_PATH_MAX)}`, GOAL_TEXTS.pathLong],
      ["   ", GOAL_TEXTS.pathMissing],
      ["/weserve", GOAL_TEXTS.pathTaken],
      ["/weserve/", GOAL_TEXTS.pathTaken],
    ];
    for (const [path, reason] of cases) {
      const answer = await add(path);
      expect(answer.statusCode, String(path)).toBe(reason === GOAL_TEXTS.pathTaken ? 409 : 400);
      expect(answer.json().fields, String(path)).toEqual({ path: reason });
    }
    for (const path of [42, null, "/we\u0000serve", "/we\u202eserve"]) {
      expect((await add(path)).statusCode, JSON.stringify(path)).toBe(400);
    }
  });

  it("lets a viewer read the goals but not change them", async () => {
    expect((await add("/wedo", viewer)).statusCode).toBe(403);
    const [goal] = (await goals()).goals.filter((each) => each.kind === "page");
    const removed = await viewer.request("DELETE", AUDIENCE_PATHS.goal(goal?.id ?? 0));
    expect(removed.statusCode).toBe(403);
  });

  it(`keeps at most ${GOALS_MAX} page goals, and takes one back once removed`, async () => {
    const kept = (await goals()).goals.filter((goal) => goal.kind === "page").length;
    for (let n = kept; n < GOALS_MAX; n += 1) {
      expect((await add(`/page-${n}`)).statusCode).toBe(201);
    }
    const oneTooMany = await add("/one-too-many");
    expect(oneTooMany.statusCode).toBe(409);
    expect(oneTooMany.json().fields).toEqual({ path: GOAL_TEXTS.tooMany });

    const [first] = (await goals()).goals.filter((goal) => goal.kind === "page");
    const removed = await editor.request("DELETE", AUDIENCE_PATHS.goal(first?.id ?? 0));
    expect(removed.statusCode).toBe(204);
    const again = await editor.request("DELETE", AUDIENCE_PATHS.goal(first?.id ?? 0));
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: GOAL_TEXTS.notFound });
    expect((await add("/one-too-many")).statusCode).toBe(201);
    const paths = (await goals()).goals.map((goal) => goal.path);
    expect(paths).not.toContain(first?.path);
    expect(paths).toHaveLength(GOALS_MAX + 2);
  });
});
