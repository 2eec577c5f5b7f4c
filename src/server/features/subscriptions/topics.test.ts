/**
 * The topics the subscribe page offers, on both engines: an editor names
 * them (refused beside the field when empty, too long, offered already or
 * one too many; a viewer cannot), the page offers them at once and drops a
 * removed one; a visitor's choice is kept with their new subscription
 * (ids that name no topic choose nothing; a list no form would send is
 * refused); the subscriber's page and the export show it; and an issue's
 * segment counts those who chose a topic, with tags, any or all.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  openSession,
  post,
  type Session,
  startApp,
  type TestApp,
} from "../../../../test/support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../../../test/support/console.ts";
import { csvRecords } from "../../../../test/support/csv.ts";
import { ENGINES } from "../../../../test/support/engines.ts";
import { builtRenderer as renderer } from "../../../../test/support/page-renderer.ts";
import { withQuery } from "../../../admin/api/client.ts";
import { NEWSLETTER_PATHS } from "../../../shared/admin/newsletter.ts";
import {
  SUBSCRIBER_ROUTES,
  type SubscriberDetail,
  subscriberPath,
  TOPIC_TEXTS,
  type TopicCount,
  topicPath,
} from "../../../shared/admin/subscribers.ts";
import { SUBSCRIBE_PATH } from "../../../shared/routes.ts";
import { TOPIC_NAME_MAX, TOPICS_LEGEND, TOPICS_MAX } from "../../../shared/subscription.ts";

describe.each(ENGINES)("the subscribe page's topics, on $engine", (engine) => {
  let t: TestApp;
  let editor: ConsoleClient;
  let viewer: ConsoleClient;
  let session: Session;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await startApp(engine, {}, { renderer });
    await createAccount(t.database, "editor");
    await createAccount(t.database, "viewer");
    editor = await signIn(t.app, "editor@firm.example");
    viewer = await signIn(t.app, "viewer@firm.example");
    session = await openSession(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  const add = (name: unknown, client = editor) =>
    client.request("POST", SUBSCRIBER_ROUTES.topics, { name });
  const listed = async (): Promise<TopicCount[]> =>
    (await viewer.request("GET", SUBSCRIBER_ROUTES.topics)).json().items;
  const subscribe = (emailId: string, topics?: string) =>
    post(
      t.app,
      session,
      `/api/v1/subscribe?${new URLSearchParams({ emailId, ...(topics === undefined ? {} : { topics }) })}`,
    );
  const page = async () => (await t.app.inject({ url: SUBSCRIBE_PATH })).body;
  const detailOf = async (email: string): Promise<SubscriberDetail> => {
    const row = await t.database.db
      .selectFrom("subscriptions")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    return (await viewer.request("GET", subscriberPath(row.id))).json();
  };

  it("offers no topic until an editor names some, then each at once, in their order", async () => {
    expect(await page()).not.toContain('name="topic-');
    for (const name of ["Insurance", "Energy & utilities", "Data platforms"]) {
      const added = await add(name);
      expect(added.statusCode, added.body).toBe(201);
      ids[name] = added.json().id;
    }
    const html = await page();
    expect(html).toContain(TOPICS_LEGEND);
    expect(html).toContain(`name="topic-${ids.Insurance}"`);
    expect(html).toContain("Energy &amp; utilities");
    expect((await listed()).map((topic) => topic.name)).toEqual([
      "Insurance",
      "Energy & utilities",
      "Data platforms",
    ]);
  });

  it("refuses a topic beside the field when it is empty, too long, offered already or one too many", async () => {
    for (const [name, reason, status] of [
      ["  ", TOPIC_TEXTS.nameMissing, 400],
      ["x".repeat(TOPIC_NAME_MAX + 1), TOPIC_TEXTS.nameLong, 400],
      ["Insurance", TOPIC_TEXTS.taken, 409],
    ] as const) {
      const answer = await add(name);
      expect(answer.statusCode, name).toBe(status);
      expect(answer.json().fields, name).toEqual({ name: reason });
    }
    expect((await add("Line\nbreak")).statusCode).toBe(400);
    expect((await add("Viewer's topic", viewer)).statusCode).toBe(403);
    const extra: number[] = [];
    for (let n = (await listed()).length; n < TOPICS_MAX; n += 1) {
      const added = await add(`Extra ${n}`);
      expect(added.statusCode).toBe(201);
      extra.push(added.json().id);
    }
    const full = await add("One too many");
    expect(full.statusCode).toBe(409);
    expect(full.json().fields).toEqual({ name: TOPIC_TEXTS.full });
    for (const id of extra) {
      expect((await editor.request("DELETE", topicPath(id))).statusCode).toBe(204);
    }
    expect((await editor.request("DELETE", topicPath(extra[0] ?? 0))).statusCode).toBe(404);
  });

  it("keeps the topics a visitor chose with their subscription, and shows them", async () => {
    const chosen = `${ids.Insurance},${ids["Data platforms"]},${ids.Insurance},999999`;
    expect((await subscribe("ana@example.com", chosen)).statusCode).toBe(201);
    expect((await subscribe("ben@example.com", `${ids.Insurance}`)).statusCode).toBe(201);
    expect((await subscribe("cy@example.com")).statusCode).toBe(201);
    expect((await detailOf("ana@example.com")).topics).toEqual(["Insurance", "Data platforms"]);
    expect((await detailOf("cy@example.com")).topics).toEqual([]);
    // Asking again changes nothing: a stranger cannot change someone's choice.
    expect((await subscribe("ana@example.com", `${ids["Energy & utilities"]}`)).statusCode).toBe(
      409,
    );
    expect((await detailOf("ana@example.com")).topics).toEqual(["Insurance", "Data platforms"]);
    expect((await listed()).map(({ name, active }) => [name, active])).toEqual([
      ["Insurance", 2],
      ["Energy & utilities", 0],
      ["Data platforms", 1],
    ]);
    const csv = csvRecords(
      (await viewer.request("GET", withQuery(SUBSCRIBER_ROUTES.export, { q: "ana@" }))).body,
    );
    expect(csv[0]?.topics).toBe("Insurance\nData platforms");
  });

  it("refuses a list of topics no form would send", async () => {
    const many = Array.from({ length: TOPICS_MAX + 1 }, (_, n) => n + 1).join(",");
    for (const topics of ["abc", "1,,2", "-1", "1e3", many, "1".repeat(200)]) {
      const answer = await subscribe(`odd-${topics.length}@example.com`, topics);
      expect(answer.statusCode, topics.slice(0, 20)).toBe(400);
    }
  });

  it("counts a segment of those who chose a topic, with tags, any or all", async () => {
    const row = await t.database.db
      .selectFrom("subscriptions")
      .select("id")
      .where("email", "=", "cy@example.com")
      .executeTakeFirstOrThrow();
    await t.database.db
      .insertInto("subscription_tags")
      .values({ subscription_id: row.id, tag: "clients" })
      .execute();
    const count = async (query: Record<string, unknown>) =>
      (await viewer.request("GET", withQuery(NEWSLETTER_PATHS.recipients, query))).json().count;
    expect(await count({ topic: ids.Insurance })).toBe(2);
    expect(await count({ topic: [ids.Insurance, ids["Data platforms"]], match: "all" })).toBe(1);
    expect(await count({ topic: ids["Data platforms"], tag: "clients" })).toBe(2);
    expect(await count({ topic: ids.Insurance, tag: "clients", match: "all" })).toBe(0);
    const refused = await viewer.request(
      "GET",
      withQuery(NEWSLETTER_PATHS.recipients, { topic: "x" }),
    );
    expect(refused.statusCode).toBe(400);
  });

  it("drops a removed topic from the page and from every subscriber's choice", async () => {
    const removed = await editor.request("DELETE", topicPath(ids.Insurance ?? 0));
    expect(removed.statusCode).toBe(204);
    expect(await page()).not.toContain(`name="topic-${ids.Insurance}"`);
    expect((await detailOf("ana@example.com")).topics).toEqual(["Data platforms"]);
    const audit = await t.database.db
      .selectFrom("audit_log")
      .select(["action", "detail"])
      .where("action", "in", ["topic-added", "topic-removed"])
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(audit.action).toBe("topic-removed");
    expect(JSON.parse(audit.detail ?? "{}")).toEqual({ name: "Insurance" });
  });
});
