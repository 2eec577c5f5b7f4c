/**
 * Turned-away posts (ADR 036), on both engines: a post a trap catches, through
 * the API or a form posted without JavaScript, gets the usual success answer
 * and is kept as it came, with why and when (but for a subscription that only
 * came too fast, which its address confirms by e-mail instead); an editor releases it (stored
 * and mailed once, as if it had just arrived, audited; a second release finds
 * nothing) or deletes it (audited); viewers only read; a kept post is purged
 * after 30 days by the clock. The list comes a page at a time, of a size
 * no query changes, and pages through every kept post once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countRows, type Session, startApp, type TestApp } from "../../../../test/support/app.ts";
import {
  anonymous,
  type ConsoleClient,
  createAccount,
  signIn,
} from "../../../../test/support/console.ts";
import { ENGINES } from "../../../../test/support/engines.ts";
import { VALID_INQUIRY } from "../../../../test/support/fixtures.ts";
import { openFormPage } from "../../../../test/support/form-page.ts";
import { builtRenderer as renderer } from "../../../../test/support/page-renderer.ts";
import { CONSENT_VIA } from "../../../shared/admin/subscribers.ts";
import {
  TURNED_AWAY_PAGE_SIZE,
  TURNED_AWAY_ROUTES,
  TURNED_AWAY_TEXTS,
  type TurnedAwayPost,
  turnedAwayPath,
} from "../../../shared/admin/turned-away.ts";
import { FORM_TRAP_FIELD, FORM_TRAP_HEADER } from "../../../shared/bot-defence.ts";
import { FORM_TOKEN_FIELD } from "../../../shared/page-context.ts";
import { tokenSigner } from "../../platform/security/xsrf.ts";
import { CONFIRMATION_SENT_MESSAGE, SUBSCRIBED_MESSAGE } from "../subscriptions/index.ts";
import { keepPost, purgePosts } from "./queries.ts";

const SECRET = "turned-away-test-secret-of-at-least-32-characters";
const MIN_SECONDS = 2;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A session whose token the server signed `secondsAgo` seconds ago. */
function sessionIssued(secondsAgo: number): Session {
  const token = tokenSigner(SECRET).sign("b".repeat(43), Date.now() - secondsAgo * 1000);
  return { cookie: `XSRF-TOKEN=${token}`, token };
}

describe.each(ENGINES)("turned-away posts on $engine", (engine) => {
  let t: TestApp;
  let formToken: string;
  let editor: ConsoleClient;
  let viewer: ConsoleClient;
  /** Set, the server's clock stands at this instant; unset, it is the real one. */
  let pinnedNow: number | undefined;

  beforeAll(async () => {
    t = await startApp(
      engine,
      { FORM_MIN_SECONDS: String(MIN_SECONDS), UNSUBSCRIBE_SECRET: SECRET },
      { renderer, now: () => pinnedNow ?? Date.now() },
    );
    formToken = (await openFormPage(t.app)).token;
    await createAccount(t.database, "editor", "away-editor@firm.example");
    await createAccount(t.database, "viewer", "away-viewer@firm.example");
    editor = await signIn(t.app, "away-editor@firm.example");
    viewer = await signIn(t.app, "away-viewer@firm.example");
  });
  afterAll(() => t.close());

  const stored = async () => ({
    inquiries: await countRows(t.database, "inquiries"),
    subscriptions: await countRows(t.database, "subscriptions"),
    outbox: await countRows(t.database, "outbox"),
  });

  function apiPost(session: Session, url: string, payload?: object, headers = {}) {
    return t.app.inject({
      method: "POST",
      url,
      headers: { cookie: session.cookie, "x-xsrf-token": session.token, ...headers },
      ...(payload ? { payload } : {}),
    });
  }
  const subscribeUrl = (address: string) =>
    `/api/v1/subscribe?emailId=${encodeURIComponent(address)}`;
  /** A subscription through the API whose honeypot header is filled: a script's, kept. */
  const honeypotSubscribe = (address: string) =>
    apiPost(sessionIssued(60), subscribeUrl(address), undefined, {
      [FORM_TRAP_HEADER]: "https://spam.example",
    });

  function formPost(session: Session, url: string, fields: Record<string, string>) {
    return t.app.inject({
      method: "POST",
      url,
      headers: {
        cookie: session.cookie,
        origin: t.config.PUBLIC_ORIGIN,
        "sec-fetch-site": "same-origin",
        "content-type": "application/x-www-form-urlencoded",
      },
      payload: new URLSearchParams({ [FORM_TOKEN_FIELD]: formToken, ...fields }).toString(),
    });
  }

  async function kept(): Promise<TurnedAwayPost[]> {
    const response = await viewer.request("GET", TURNED_AWAY_ROUTES.list);
    expect(response.statusCode).toBe(200);
    const body = response.json() as { days: number; posts: TurnedAwayPost[] };
    expect(body.days).toBe(t.config.TURNED_AWAY_RETENTION_DAYS);
    return body.posts;
  }
  const keptFor = async (value: string) =>
    (await kept()).filter((post) => Object.values(post.fields).includes(value));

  async function auditOf(action: string, id: number) {
    return t.database.db
      .selectFrom("audit_log")
      .select(["actor", "detail"])
      .where("action", "=", action)
      .where("target", "=", `turned-away:${id}`)
      .execute();
  }

  it("keeps a subscription caught by the honeypot through the API; releasing it subscribes and mails once", async () => {
    const address = `honey-${engine.engine}@example.com`;
    const before = await stored();
    const answer = await honeypotSubscribe(address);
    expect(answer.statusCode).toBe(201);
    expect(answer.json()).toEqual({ message: SUBSCRIBED_MESSAGE, confirmationAsked: false });
    expect(await stored()).toEqual(before);

    const [post] = await keptFor(address);
    expect(post).toEqual({
      id: expect.any(Number),
      form: "subscription",
      reason: "honeypot",
      seconds: expect.any(Number),
      via: CONSENT_VIA.website,
      fields: { emailId: address },
      receivedAt: expect.any(String),
    });
    expect(post?.seconds).toBeGreaterThanOrEqual(60);
    const id = post?.id as number;

    const released = await editor.request("POST", turnedAwayPath(id, "release"));
    expect(released.statusCode).toBe(200);
    expect(released.json()).toEqual({ message: TURNED_AWAY_TEXTS.releasedSubscription });
    const after = await stored();
    expect(after.subscriptions).toBe(before.subscriptions + 1);
    expect(after.outbox).toBe(before.outbox + 1);
    const welcome = await t.database.db
      .selectFrom("outbox")
      .select("kind")
      .where("message", "like", `%${address}%`)
      .execute();
    expect(welcome).toHaveLength(1);
    expect(await keptFor(address)).toEqual([]);
    expect(await auditOf("turned-away-released", id)).toEqual([
      { actor: "away-editor@firm.example", detail: JSON.stringify({ form: "subscription" }) },
    ]);

    const again = await editor.request("POST", turnedAwayPath(id, "release"));
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ message: TURNED_AWAY_TEXTS.notFound });
    expect(await stored()).toEqual(after);
  });

  it("keeps the topics a caught subscription chose, and a release stores them with it", async () => {
    const address = `honey-topics-${engine.engine}@example.com`;
    const topic = await t.database.db
      .insertInto("topics")
      .values({ name: `Insurance ${engine.engine}` })
      .returning("id")
      .executeTakeFirstOrThrow();
    const answer = await apiPost(
      sessionIssued(60),
      `${subscribeUrl(address)}&topics=${topic.id}`,
      undefined,
      { [FORM_TRAP_HEADER]: "https://spam.example" },
    );
    expect(answer.statusCode).toBe(201);
    const [post] = await keptFor(address);
    expect(post?.fields).toEqual({ emailId: address, topics: String(topic.id) });
    const released = await editor.request("POST", turnedAwayPath(post?.id ?? 0, "release"));
    expect(released.statusCode).toBe(200);
    const chosen = await t.database.db
      .selectFrom("subscription_topics")
      .innerJoin("subscriptions", "subscriptions.id", "subscription_topics.subscription_id")
      .select("subscription_topics.topic_id")
      .where("subscriptions.email", "=", address)
      .execute();
    expect(chosen).toEqual([{ topic_id: topic.id }]);
  });

  it("keeps an inquiry that came too fast, but not a subscription: that one waits for its e-mail's confirmation", async () => {
    const address = `fast-${engine.engine}@example.com`;
    const inquiry = { ...VALID_INQUIRY, comments: `Too fast on ${engine.engine}.` };
    const before = await stored();
    const subscribed = await apiPost(sessionIssued(0), subscribeUrl(address));
    expect(subscribed.statusCode).toBe(201);
    // Its visitor is told to confirm, though the site asks no one else to.
    expect(subscribed.json()).toEqual({
      message: CONFIRMATION_SENT_MESSAGE,
      confirmationAsked: true,
    });
    expect((await apiPost(sessionIssued(0), "/api/v1/send-comment", inquiry)).statusCode).toBe(200);
    expect(await keptFor(address)).toEqual([]);
    const [post] = await keptFor(inquiry.comments);
    expect(post).toMatchObject({ form: "inquiry", reason: "too-fast", fields: inquiry });
    expect(post?.seconds).toBeLessThan(MIN_SECONDS);
    const after = await stored();
    expect(after.inquiries).toBe(before.inquiries);
    expect(after.subscriptions).toBe(before.subscriptions + 1);
    expect(after.outbox).toBe(before.outbox + 1);
  });

  it("keeps an inquiry caught by the honeypot; releasing it stores it and queues its mail as a new one would", async () => {
    const inquiry = { ...VALID_INQUIRY, comments: `Honeypot inquiry on ${engine.engine}.` };
    const before = await stored();
    const answer = await apiPost(sessionIssued(60), "/api/v1/send-comment", inquiry, {
      [FORM_TRAP_HEADER]: "https://spam.example",
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ id: expect.any(Number) });
    expect(await stored()).toEqual(before);

    const [post] = await keptFor(inquiry.comments);
    expect(post).toMatchObject({ form: "inquiry", reason: "honeypot", fields: inquiry });
    expect(post?.seconds).toBeGreaterThanOrEqual(60);

    // What an inquiry that passes the traps stores and queues, to compare with.
    const passed = await apiPost(sessionIssued(60), "/api/v1/send-comment", VALID_INQUIRY);
    expect(passed.statusCode).toBe(200);
    const afterPassed = await stored();
    const mailPerInquiry = afterPassed.outbox - before.outbox;

    const released = await editor.request("POST", turnedAwayPath(post?.id as number, "release"));
    expect(released.statusCode).toBe(200);
    expect(released.json()).toEqual({ message: TURNED_AWAY_TEXTS.releasedInquiry });
    const after = await stored();
    expect(after.inquiries).toBe(afterPassed.inquiries + 1);
    expect(after.outbox).toBe(afterPassed.outbox + mailPerInquiry);
    const row = await t.database.db
      .selectFrom("inquiries")
      .select(["first_name", "notification_outbox_id"])
      .where("comments", "=", inquiry.comments)
      .executeTakeFirstOrThrow();
    expect(row.first_name).toBe(inquiry.firstName);
    expect(row.notification_outbox_id).not.toBeNull();

    expect(
      (await editor.request("POST", turnedAwayPath(post?.id as number, "release"))).statusCode,
    ).toBe(404);
    expect(await stored()).toEqual(after);
  });

  it("keeps the posts of the forms without JavaScript, and an editor deletes one", async () => {
    const address = `nojs-${engine.engine}@example.com`;
    const page = await formPost(sessionIssued(60), "/subscribe", {
      emailId: address,
      [FORM_TRAP_FIELD]: "x",
    });
    expect(page.statusCode).toBe(201);
    expect(page.body).toMatch(/<div class="form-status form-status--ok" role="status">/);
    const inquiry = { ...VALID_INQUIRY, comments: `No-script honeypot on ${engine.engine}.` };
    const sent = await formPost(sessionIssued(60), "/contact-us", {
      ...inquiry,
      [FORM_TRAP_FIELD]: "x",
    });
    expect(sent.statusCode).toBe(200);

    const [subscription] = await keptFor(address);
    expect(subscription).toMatchObject({
      form: "subscription",
      reason: "honeypot",
      via: CONSENT_VIA.form,
      fields: { emailId: address },
    });
    const [kept] = await keptFor(inquiry.comments);
    expect(kept).toMatchObject({ form: "inquiry", reason: "honeypot", via: CONSENT_VIA.form });

    const id = subscription?.id as number;
    const before = await stored();
    const deleted = await editor.request("DELETE", turnedAwayPath(id));
    expect(deleted.statusCode).toBe(204);
    expect(await keptFor(address)).toEqual([]);
    expect(await stored()).toEqual(before);
    expect(await auditOf("turned-away-deleted", id)).toEqual([
      { actor: "away-editor@firm.example", detail: JSON.stringify({ form: "subscription" }) },
    ]);
    const again = await editor.request("DELETE", turnedAwayPath(id));
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ message: TURNED_AWAY_TEXTS.notFound });
  });

  it("lets viewers read but not release or delete, and strangers nothing", async () => {
    const address = `roles-${engine.engine}@example.com`;
    await honeypotSubscribe(address);
    const [post] = await keptFor(address);
    const id = post?.id as number;

    expect((await viewer.request("POST", turnedAwayPath(id, "release"))).statusCode).toBe(403);
    expect((await viewer.request("DELETE", turnedAwayPath(id))).statusCode).toBe(403);
    const stranger = await anonymous(t.app);
    expect((await stranger.request("GET", TURNED_AWAY_ROUTES.list)).statusCode).toBe(401);
    expect((await stranger.request("POST", turnedAwayPath(id, "release"))).statusCode).toBe(401);
    expect(await keptFor(address)).toHaveLength(1);
  });

  it("purges a kept post once it is older than 30 days, by the clock", async () => {
    const old = `old-${engine.engine}@example.com`;
    const recent = `recent-${engine.engine}@example.com`;
    const start = Date.now();
    try {
      // Kept at the clock's time, 31 and 29 days ago.
      pinnedNow = start - 31 * DAY_MS;
      await honeypotSubscribe(old);
      pinnedNow = start - 29 * DAY_MS;
      await honeypotSubscribe(recent);
    } finally {
      pinnedNow = undefined;
    }
    expect(await keptFor(old)).toHaveLength(1);
    expect(await purgePosts(t.database.db, 30, new Date(start))).toBeGreaterThanOrEqual(1);
    expect(await keptFor(old)).toEqual([]);
    expect(await keptFor(recent)).toHaveLength(1);
    // Two more days on the clock, and the other goes too.
    await purgePosts(t.database.db, 30, new Date(start + 2 * DAY_MS));
    expect(await keptFor(recent)).toEqual([]);
  });
});

describe.each(ENGINES)("the turned-away list's pages on $engine", (engine) => {
  let t: TestApp;
  let viewer: ConsoleClient;
  /** The kept posts' ids, newest first, as the list orders them. */
  let newestFirst: number[];
  const KEPT = 3 * TURNED_AWAY_PAGE_SIZE + 7;

  beforeAll(async () => {
    t = await startApp(engine);
    await createAccount(t.database, "viewer", "pages-viewer@firm.example");
    viewer = await signIn(t.app, "pages-viewer@firm.example");
    // A script's flood: long comments, and posts three at a time in the same millisecond,
    // so that only the id tells them apart.
    const start = Date.now() - 60 * 60_000;
    const kept: { id: number; at: number }[] = [];
    for (let n = 0; n < KEPT; n += 1) {
      const at = start + Math.floor(n / 3) * 1000;
      await keepPost(
        t.database.db,
        {
          form: "inquiry",
          trap: { reason: "honeypot", seconds: 1 },
          via: CONSENT_VIA.website,
          fields: { ...VALID_INQUIRY, comments: `Flood ${n}. ${"x".repeat(4000)}` },
        },
        new Date(at),
      );
    }
    const rows = await t.database.db
      .selectFrom("turned_away")
      .select(["id", "received_at"])
      .execute();
    for (const row of rows) kept.push({ id: row.id, at: Date.parse(row.received_at) });
    newestFirst = kept.sort((a, b) => b.at - a.at || b.id - a.id).map((post) => post.id);
  });
  afterAll(() => t.close());

  async function page(query: string) {
    const response = await viewer.request("GET", `${TURNED_AWAY_ROUTES.list}${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as {
      posts: TurnedAwayPost[];
      total: number;
      page: number;
      pageSize: number;
    };
  }

  it("answers a page of a size no query raises, and every kept post on exactly one page", async () => {
    expect(newestFirst).toHaveLength(KEPT);
    const first = await page("");
    expect(first.posts).toHaveLength(TURNED_AWAY_PAGE_SIZE);
    expect(first).toMatchObject({ total: KEPT, page: 1, pageSize: TURNED_AWAY_PAGE_SIZE });
    for (const query of ["?pageSize=100000", "?limit=100000", "?page=1&per_page=100000"]) {
      expect((await page(query)).posts).toHaveLength(TURNED_AWAY_PAGE_SIZE);
    }

    const seen: number[] = [];
    const pages = Math.ceil(KEPT / TURNED_AWAY_PAGE_SIZE);
    for (let n = 1; n <= pages; n += 1) {
      const answer = await page(`?page=${n}`);
      expect(answer.page).toBe(n);
      expect(answer.posts.length).toBeLessThanOrEqual(TURNED_AWAY_PAGE_SIZE);
      seen.push(...answer.posts.map((post) => post.id));
    }
    expect(seen).toEqual(newestFirst);
    expect((await page(`?page=${pages + 1}`)).posts).toEqual([]);
  });

  it("reads a page number it cannot use as the first page", async () => {
    const first = (await page("")).posts.map((post) => post.id);
    for (const query of ["?page=0", "?page=-3", "?page=abc", "?page=1.5", "?page=99999999999"]) {
      const answer = await page(query);
      expect(answer.page).toBe(1);
      expect(answer.posts.map((post) => post.id)).toEqual(first);
    }
  });
});
