/**
 * The forms' traps against scripts (ADR 017): a post whose honeypot is filled,
 * or whose token is younger than FORM_MIN_SECONDS, gets the normal success
 * answer while nothing is stored or queued, but for a subscription that only
 * came too fast, which waits for its address to confirm by e-mail (ADR 036);
 * each is logged and counted per day, form and reason, and the console reads
 * the counts. Through the API and the forms posted without JavaScript (the
 * real server build), on both engines.
 */
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFIRMATION_SENT_MESSAGE } from "../../../src/server/features/subscriptions/index.ts";
import { countTrip } from "../../../src/server/platform/security/bot-trips.ts";
import { tokenSigner } from "../../../src/server/platform/security/xsrf.ts";
import { DEFENCE_PATHS, DEFENCE_WINDOW_DAYS } from "../../../src/shared/admin/defences.ts";
import { FORM_TRAP_FIELD, FORM_TRAP_HEADER } from "../../../src/shared/bot-defence.ts";
import { FORM_TOKEN_FIELD } from "../../../src/shared/page-context.ts";
import { countRows, openSession, type Session, startApp, type TestApp } from "../../support/app.ts";
import { createAccount, signIn } from "../../support/console.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";
import { VALID_INQUIRY } from "../../support/fixtures.ts";
import { openFormPage } from "../../support/form-page.ts";
import { builtRenderer as renderer } from "../../support/page-renderer.ts";

const SECRET = "bot-defence-test-secret-of-at-least-32-characters";
const MIN_SECONDS = 2;

/** A session whose token the server signed `secondsAgo` seconds ago, as if the page had been open that long. */
function sessionIssued(secondsAgo: number): Session {
  const token = tokenSigner(SECRET).sign("a".repeat(43), Date.now() - secondsAgo * 1000);
  return { cookie: `XSRF-TOKEN=${token}`, token };
}

describe.each(SQLITE_ONLY)("traps against scripted posts on $engine", (engine) => {
  let t: TestApp;
  let formToken: string;
  /** Set, the server's clock stands at this instant; unset, it is the real one. */
  let pinnedNow: number | undefined;
  beforeAll(async () => {
    t = await startApp(
      engine,
      { FORM_MIN_SECONDS: String(MIN_SECONDS), UNSUBSCRIBE_SECRET: SECRET },
      { renderer, now: () => pinnedNow ?? Date.now() },
    );
    formToken = (await openFormPage(t.app)).token;
  });
  afterAll(() => t.close());

  const count = (table: "inquiries" | "subscriptions" | "outbox") => countRows(t.database, table);
  const stored = async () => ({
    inquiries: await count("inquiries"),
    subscriptions: await count("subscriptions"),
    outbox: await count("outbox"),
  });

  /** The trips counted for a form and reason, since `day` (YYYY-MM-DD) or ever. */
  async function trips(form: string, reason: string, day = "0000-00-00"): Promise<number> {
    const { n } = await t.database.db
      .selectFrom("bot_trips")
      .select((eb) => eb.fn.sum<number | string>("count").as("n"))
      .where("form", "=", form)
      .where("reason", "=", reason)
      .where("day", ">=", day)
      .executeTakeFirstOrThrow();
    return Number(n ?? 0);
  }

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

  /** Sends `send`, and expects one more trip counted and the trip logged. */
  async function sendTrapped(
    form: "inquiry" | "subscription",
    reason: "honeypot" | "too-fast",
    send: () => Promise<LightMyRequestResponse>,
  ): Promise<LightMyRequestResponse> {
    const tripsBefore = await trips(form, reason);
    const logsBefore = t.logs.length;
    const response = await send();
    expect(await trips(form, reason)).toBe(tripsBefore + 1);
    const logged = t.logs.slice(logsBefore).map((line) => JSON.parse(line));
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 30, form, reason, msg: "post trapped as automated" }),
    );
    return response;
  }

  /** Sends `send`, and expects it trapped with nothing stored or queued. */
  async function expectTrapped(
    form: "inquiry" | "subscription",
    reason: "honeypot" | "too-fast",
    send: () => Promise<LightMyRequestResponse>,
  ): Promise<LightMyRequestResponse> {
    const before = await stored();
    const response = await sendTrapped(form, reason, send);
    expect(await stored()).toEqual(before);
    return response;
  }

  const confirmationsTo = async (address: string) =>
    (
      await t.database.db
        .selectFrom("outbox")
        .select("id")
        .where("kind", "=", "subscription-confirmation")
        .where("message", "like", `%${address}%`)
        .execute()
    ).length;
  const subscriptionOf = (address: string) =>
    t.database.db
      .selectFrom("subscriptions")
      .select(["email", "confirmed_at"])
      .where("email", "=", address)
      .executeTakeFirst();

  /**
   * Sends `send`, a subscription of `address` that comes too fast, and
   * expects it trapped and yet kept: the address waits for its confirmation,
   * whose link is queued, and nothing else is stored or queued.
   */
  async function expectAskedToConfirm(
    address: string,
    send: () => Promise<LightMyRequestResponse>,
  ): Promise<LightMyRequestResponse> {
    const before = await stored();
    const confirmationsBefore = await confirmationsTo(address);
    const response = await sendTrapped("subscription", "too-fast", send);
    expect(await subscriptionOf(address)).toEqual({ email: address, confirmed_at: null });
    expect(await confirmationsTo(address)).toBe(confirmationsBefore + 1);
    const after = await stored();
    expect(after.inquiries).toBe(before.inquiries);
    expect(after.outbox).toBe(before.outbox + 1);
    return response;
  }

  it("a subscribe posted at once after taking a token is answered 201 and must be confirmed by e-mail", async () => {
    const session = await openSession(t.app);
    const address = `fast-${engine.engine}@example.com`;
    const response = await expectAskedToConfirm(address, () =>
      apiPost(session, subscribeUrl(address)),
    );
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      message: CONFIRMATION_SENT_MESSAGE,
      confirmationAsked: true,
    });
  });

  it("an inquiry posted at once after taking a token is answered 200 with an id and stores nothing", async () => {
    const session = await openSession(t.app);
    const response = await expectTrapped("inquiry", "too-fast", () =>
      apiPost(session, "/api/v1/send-comment", VALID_INQUIRY),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: expect.any(Number) });
  });

  it("the same posts with a token older than the minimum are stored", async () => {
    const session = sessionIssued(MIN_SECONDS + 1);
    const before = await stored();
    const subscribed = await apiPost(session, subscribeUrl(`patient-${engine.engine}@example.com`));
    expect(subscribed.statusCode).toBe(201);
    const sent = await apiPost(session, "/api/v1/send-comment", VALID_INQUIRY);
    expect(sent.statusCode).toBe(200);
    const after = await stored();
    expect(after.subscriptions).toBe(before.subscriptions + 1);
    expect(after.inquiries).toBe(before.inquiries + 1);
    expect(after.outbox).toBe(before.outbox + 2);
  });

  it("a real token is trapped while young and trusted once the minimum has passed", async () => {
    const session = await openSession(t.app);
    const address = `waits-${engine.engine}@example.com`;
    const inquiry = { ...VALID_INQUIRY, comments: `Waits on ${engine.engine}.` };
    const inquiries = () =>
      t.database.db
        .selectFrom("inquiries")
        .select("id")
        .where("comments", "=", inquiry.comments)
        .execute();
    await expectAskedToConfirm(address, () => apiPost(session, subscribeUrl(address)));
    await expectTrapped("inquiry", "too-fast", () =>
      apiPost(session, "/api/v1/send-comment", inquiry),
    );
    const issuedAt = tokenSigner(SECRET).issuedAt(session.token) as number;
    try {
      // One millisecond short of the minimum, the same token is still trapped.
      pinnedNow = issuedAt + MIN_SECONDS * 1000 - 1;
      await expectAskedToConfirm(address, () => apiPost(session, subscribeUrl(address)));
      await expectTrapped("inquiry", "too-fast", () =>
        apiPost(session, "/api/v1/send-comment", inquiry),
      );
      expect(await inquiries()).toEqual([]);
      // At the minimum the post is taken for a person's: subscribed at once, and stored.
      pinnedNow = issuedAt + MIN_SECONDS * 1000;
      expect((await apiPost(session, subscribeUrl(address))).statusCode).toBe(201);
      expect((await subscriptionOf(address))?.confirmed_at).not.toBeNull();
      expect((await apiPost(session, "/api/v1/send-comment", inquiry)).statusCode).toBe(200);
      expect(await inquiries()).toHaveLength(1);
    } finally {
      pinnedNow = undefined;
    }
  });

  it("a filled honeypot header traps an API write however old its token", async () => {
    const session = sessionIssued(60);
    const subscribed = await expectTrapped("subscription", "honeypot", () =>
      apiPost(session, subscribeUrl(`honey-${engine.engine}@example.com`), undefined, {
        [FORM_TRAP_HEADER]: "https://spam.example",
      }),
    );
    expect(subscribed.statusCode).toBe(201);
    const sent = await expectTrapped("inquiry", "honeypot", () =>
      apiPost(session, "/api/v1/send-comment", VALID_INQUIRY, { [FORM_TRAP_HEADER]: "x" }),
    );
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ id: expect.any(Number) });
  });

  it("a form posted without JavaScript with its honeypot filled gets the success page and stores nothing", async () => {
    const session = sessionIssued(60);
    const inquiry = await expectTrapped("inquiry", "honeypot", () =>
      formPost(session, "/contact-us", {
        ...VALID_INQUIRY,
        [FORM_TRAP_FIELD]: "https://spam.example",
      }),
    );
    expect(inquiry.statusCode).toBe(200);
    expect(inquiry.body).toMatch(/<div class="form-status form-status--ok" role="status">/);
    const subscription = await expectTrapped("subscription", "honeypot", () =>
      formPost(session, "/subscribe", {
        emailId: "nojs-honey@example.com",
        [FORM_TRAP_FIELD]: "x",
      }),
    );
    expect(subscription.statusCode).toBe(201);
    expect(subscription.body).toMatch(/<div class="form-status form-status--ok" role="status">/);
  });

  it("a form posted without JavaScript too soon after its page gets the success page and must be confirmed by e-mail", async () => {
    const session = sessionIssued(0);
    const address = `nojs-fast-${engine.engine}@example.com`;
    const response = await expectAskedToConfirm(address, () =>
      formPost(session, "/subscribe", { emailId: address }),
    );
    expect(response.statusCode).toBe(201);
    expect(response.body).toMatch(/<div class="form-status form-status--ok" role="status">/);
  });

  it("a form posted without JavaScript after the minimum, with the honeypot empty, is stored", async () => {
    const before = await stored();
    const response = await formPost(sessionIssued(MIN_SECONDS + 1), "/subscribe", {
      emailId: `nojs-person-${engine.engine}@example.com`,
      [FORM_TRAP_FIELD]: "",
    });
    expect(response.statusCode).toBe(201);
    expect((await stored()).subscriptions).toBe(before.subscriptions + 1);
  });

  it("counts trips with one upsert per day, form and reason, and the console reads the last 30 days", async () => {
    const db = t.database.db;
    const today = new Date();
    const windowStart = new Date(today.getTime() - (DEFENCE_WINDOW_DAYS - 1) * 24 * 60 * 60 * 1000);
    const outside = new Date(windowStart.getTime() - 24 * 60 * 60 * 1000);
    const first = windowStart.toISOString().slice(0, 10);
    const before = await trips("inquiry", "too-fast", first);
    // At once, as several instances would: no count is lost.
    await Promise.all([1, 2, 3].map(() => countTrip(db, "inquiry", "too-fast", outside)));
    await Promise.all([1, 2, 3, 4, 5].map(() => countTrip(db, "inquiry", "too-fast", windowStart)));
    expect(await trips("inquiry", "too-fast", first)).toBe(before + 5);
    // A second form and reason in the window, whichever tests trapped posts before this one.
    await countTrip(db, "subscription", "honeypot", today);

    await createAccount(t.database, "viewer", `defences-viewer-${engine.engine}@firm.example`);
    const viewer = await signIn(t.app, `defences-viewer-${engine.engine}@firm.example`);
    const response = await viewer.request("GET", DEFENCE_PATHS.trips);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      days: DEFENCE_WINDOW_DAYS,
      trips: expect.arrayContaining([
        { form: "inquiry", reason: "too-fast", trips: before + 5 },
        {
          form: "subscription",
          reason: "honeypot",
          trips: await trips("subscription", "honeypot", first),
        },
      ]),
    });

    const anonymous = await t.app.inject({ url: DEFENCE_PATHS.trips });
    expect(anonymous.statusCode).toBe(401);
  });
});
