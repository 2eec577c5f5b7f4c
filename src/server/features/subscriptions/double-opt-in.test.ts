/**
 * Double opt-in for Insight: with NEWSLETTER_DOUBLE_OPT_IN
 * a new subscriber gets a confirmation link instead of the welcome, opening
 * the link's page confirms nothing, pressing its button (the API, or the page
 * posted as a plain form) confirms once and queues the welcome once, and
 * links that are forged, outdated or too old are refused. Off, subscribing
 * confirms at once. Mail goes through a real SMTP server; the pages are the
 * real server build (npm test builds it first), on both engines.
 */
import escapeHtml from "escape-html";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  openSession,
  post,
  type Session,
  startApp,
  type TestApp,
} from "../../../../test/support/app.ts";
import { ENGINES } from "../../../../test/support/engines.ts";
import { openFormPage } from "../../../../test/support/form-page.ts";
import { mailTo } from "../../../../test/support/mail-env.ts";
import { builtRenderer as renderer } from "../../../../test/support/page-renderer.ts";
import { type ReceivedMail, startSmtp, type TestSmtp } from "../../../../test/support/smtp.ts";
import { CONSENT_VIA } from "../../../shared/admin/subscribers.ts";
import { FORM_TRAP_HEADER } from "../../../shared/bot-defence.ts";
import { DIALOG } from "../../../shared/constants.ts";
import { FORM_TOKEN_FIELD } from "../../../shared/page-context.ts";
import { EXPIRED_CONFIRM_LINK_MESSAGE, INVALID_CONFIRM_LINK_MESSAGE } from "./confirm-routes.ts";
import { signConfirmToken } from "./confirm-token.ts";
import { CONFIRMED_VIA, LAPSED_VIA, purgeUnconfirmed, unsubscribe } from "./queries.ts";
import { maskEmail } from "./unsubscribe-routes.ts";
import {
  CONFIRMATION_SENT_MESSAGE,
  confirmationLapsedBefore,
  SUBSCRIBED_MESSAGE,
} from "./writes.ts";

const ORIGIN = "https://www.firm.example";
const CONFIRM_HOURS = 72;
const HOUR_MS = 60 * 60 * 1000;
const CONFIRM_API = "/api/v1/subscribe/confirm";
const DOUBLE_OPT_IN = {
  NEWSLETTER_DOUBLE_OPT_IN: "true",
  NEWSLETTER_CONFIRM_HOURS: String(CONFIRM_HOURS),
};

/** How React writes a text into the HTML (& < > " ' escaped). */
const asHtml = (text: string) => escapeHtml(text).replaceAll("&#39;", "&#x27;");

/** The confirmation link in a mail's text and HTML parts (the same link in both). */
function confirmLink(mail: ReceivedMail | undefined): URL {
  const text = /https:\/\/\S+\/subscribe\/confirm\?token=[^\s\]]+/.exec(
    mail?.parsed.text ?? "",
  )?.[0];
  if (!text) throw new Error("no confirmation link in the e-mail");
  expect(mail?.parsed.html).toContain(`href="${text}"`);
  return new URL(text);
}

const tokenOf = (url: URL) => url.searchParams.get("token") ?? "";

/** Shared by both settings: the app, its SMTP server and what a test reads back. */
function harness(engine: (typeof ENGINES)[number], env: Record<string, string>) {
  const h = {} as { t: TestApp; smtp: TestSmtp; session: Session };
  beforeAll(async () => {
    h.smtp = await startSmtp();
    h.t = await startApp(engine, mailTo(h.smtp.url, { PUBLIC_ORIGIN: ORIGIN, ...env }), {
      renderer,
    });
    h.session = await openSession(h.t.app);
  });
  afterAll(async () => {
    await h.t.close();
    await h.smtp.close();
  });

  const db = () => h.t.database.db;
  return {
    h,
    subscribe: (email: string) =>
      post(h.t.app, h.session, `/api/v1/subscribe?emailId=${encodeURIComponent(email)}`),
    row: (email: string) =>
      db()
        .selectFrom("subscriptions")
        .select([
          "id",
          "email",
          "subscribed_at",
          "confirmed_at",
          "unsubscribed_at",
          "unsubscribed_via",
        ])
        .where("email", "=", email)
        .executeTakeFirst(),
    rows: (email: string) =>
      db().selectFrom("subscriptions").select("id").where("email", "=", email).execute(),
    /** The kinds of the mail queued to `email`, oldest first. */
    async mailKinds(email: string): Promise<string[]> {
      const rows = await db()
        .selectFrom("outbox")
        .select(["kind", "message"])
        .orderBy("id")
        .execute();
      return rows
        .filter((row) => (JSON.parse(row.message) as { to: unknown }).to === email)
        .map((row) => row.kind);
    },
    events: (subscriptionId: number) =>
      db()
        .selectFrom("subscription_events")
        .select(["event", "via"])
        .where("subscription_id", "=", subscriptionId)
        .orderBy("id")
        .execute(),
  };
}

describe.each(ENGINES)("double opt-in off (the default) on $engine", (engine) => {
  const { h, subscribe, row, mailKinds } = harness(engine, {});

  it("welcomes a new subscriber at once and stores the address as confirmed", async () => {
    const email = "at-once@example.com";
    const before = Date.now();
    expect((await subscribe(email)).json()).toEqual({
      message: SUBSCRIBED_MESSAGE,
      confirmationAsked: false,
    });
    const [welcome] = await h.smtp.waitForMailTo(email);
    expect(welcome?.parsed.subject).toContain("Welcome to Insight");
    const stored = await row(email);
    expect(stored?.confirmed_at).not.toBeNull();
    expect(new Date(stored?.confirmed_at ?? 0).getTime()).toBeGreaterThanOrEqual(before);
    expect(await mailKinds(email)).toEqual(["welcome"]);
  });

  it("confirms a returning subscriber anew when the address subscribes again", async () => {
    const email = "returns-at-once@example.com";
    await subscribe(email);
    const first = await row(email);
    await unsubscribe(h.t.database.db, first?.id ?? 0, CONSENT_VIA.link);
    expect((await subscribe(email)).statusCode).toBe(201);
    const again = await row(email);
    expect(again?.unsubscribed_at).toBeNull();
    expect(new Date(again?.confirmed_at ?? 0).getTime()).toBeGreaterThan(
      new Date(first?.confirmed_at ?? 0).getTime(),
    );
    expect(await mailKinds(email)).toEqual(["welcome", "welcome"]);
  });
});

describe.each(ENGINES)("double opt-in on $engine", (engine) => {
  const { h, subscribe, row, rows, mailKinds, events } = harness(engine, DOUBLE_OPT_IN);

  /** Subscribes `email` and returns the link of its `count`th confirmation e-mail. */
  async function subscribedLink(email: string, count = 1): Promise<URL> {
    expect((await subscribe(email)).json()).toEqual({
      message: CONFIRMATION_SENT_MESSAGE,
      confirmationAsked: true,
    });
    const mails = await h.smtp.waitForMailTo(email, count);
    return confirmLink(mails[count - 1]);
  }

  const checkLink = (token: string) =>
    h.t.app.inject({ url: `${CONFIRM_API}?token=${encodeURIComponent(token)}` });
  const confirmByApi = (token: string) => post(h.t.app, h.session, CONFIRM_API, { token });
  /** The page's button, as a browser posts it with or without JavaScript: a plain form. */
  const pressButton = (url: URL) =>
    h.t.app.inject({
      method: "POST",
      url: `${url.pathname}${url.search}`,
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
      payload: "",
    });

  /** The link an e-mail sent `hoursAgo` would carry: its row is moved back in time to match. */
  async function linkFromHoursAgo(email: string, hoursAgo: number): Promise<string> {
    await subscribedLink(email);
    const stored = await row(email);
    const subscribedAt = new Date(Date.now() - hoursAgo * HOUR_MS).toISOString();
    await h.t.database.db
      .updateTable("subscriptions")
      .set({ subscribed_at: subscribedAt })
      .where("email", "=", email)
      .execute();
    return signConfirmToken(h.t.app.newsletterSignup.secret, {
      id: stored?.id ?? 0,
      email,
      subscribedAt,
    });
  }

  it("sends a confirmation link instead of the welcome, and tells the visitor to confirm", async () => {
    const email = "confirm-me@example.com";
    const link = await subscribedLink(email);
    expect(link.origin + link.pathname).toBe(`${ORIGIN}/subscribe/confirm`);
    expect(tokenOf(link)).toMatch(/^\d+\.[0-9a-z]+\.[A-Za-z0-9_-]{43}$/);
    const [mail] = await h.smtp.waitForMailTo(email);
    expect(mail?.parsed.subject).toBe("Please confirm your subscription to Insight");
    expect(mail?.parsed.text).toContain(`${CONFIRM_HOURS} hours`);
    const stored = await row(email);
    expect(stored).toMatchObject({ confirmed_at: null, unsubscribed_at: null });
    expect(await mailKinds(email)).toEqual(["subscription-confirmation"]);
    // Nothing has begun yet: the consent history waits for the confirmation.
    expect(await events(stored?.id ?? 0)).toEqual([]);
  });

  it("the no-script subscribe form sends the confirmation link too, and its page says to check the inbox", async () => {
    const email = "no-script-confirm@example.com";
    const { cookie, token } = await openFormPage(h.t.app);
    const answer = await h.t.app.inject({
      method: "POST",
      url: "/subscribe",
      headers: {
        cookie,
        origin: ORIGIN,
        "sec-fetch-site": "same-origin",
        "content-type": "application/x-www-form-urlencoded",
      },
      payload: new URLSearchParams({ [FORM_TOKEN_FIELD]: token, emailId: email }).toString(),
    });
    expect(answer.statusCode).toBe(201);
    expect(answer.body).toContain(asHtml(DIALOG.checkInbox));
    expect(answer.body).not.toContain(asHtml(DIALOG.subscribed));
    expect(await mailKinds(email)).toEqual(["subscription-confirmation"]);
    expect((await row(email))?.confirmed_at).toBeNull();
  });

  it("answers a subscription caught by the honeypot as it answers a person's: told to confirm", async () => {
    const email = "honeypot-confirm@example.com";
    const answer = await h.t.app.inject({
      method: "POST",
      url: `/api/v1/subscribe?emailId=${encodeURIComponent(email)}`,
      headers: {
        cookie: h.session.cookie,
        "x-xsrf-token": h.session.token,
        [FORM_TRAP_HEADER]: "https://spam.example",
      },
    });
    expect(answer.statusCode).toBe(201);
    expect(answer.json()).toEqual({ message: CONFIRMATION_SENT_MESSAGE, confirmationAsked: true });
    expect(await rows(email)).toEqual([]);
    expect(await mailKinds(email)).toEqual([]);
  });

  it("opening the link's page or asking the API about it confirms nothing", async () => {
    const email = "scanner@example.com";
    const link = await subscribedLink(email);
    const page = await h.t.app.inject({ url: `${link.pathname}${link.search}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(
      /<form method="post">\s*<button type="submit"[^>]*>Confirm my subscription/,
    );
    expect((await checkLink(tokenOf(link))).json()).toEqual({
      state: "pending",
      email: maskEmail(email),
    });
    expect((await row(email))?.confirmed_at).toBeNull();
    expect(await mailKinds(email)).toEqual(["subscription-confirmation"]);
  });

  it("20 simultaneous confirmations confirm once and queue one welcome", async () => {
    const email = "many-clicks@example.com";
    const token = tokenOf(await subscribedLink(email));
    const answers = await Promise.all(Array.from({ length: 20 }, () => confirmByApi(token)));
    for (const answer of answers) {
      expect(answer.json()).toEqual({ state: "confirmed", email: maskEmail(email) });
    }
    const stored = await row(email);
    expect(stored?.confirmed_at).not.toBeNull();
    expect(await mailKinds(email)).toEqual(["subscription-confirmation", "welcome"]);
    expect(await events(stored?.id ?? 0)).toEqual([{ event: "subscribed", via: CONFIRMED_VIA }]);
    const [, welcome] = await h.smtp.waitForMailTo(email, 2);
    expect(welcome?.parsed.subject).toContain("Welcome to Insight");
    expect((await checkLink(token)).json()).toMatchObject({ state: "confirmed" });
    // Confirmed, the address is subscribed: 409, as for any address already on the list.
    expect((await subscribe(email)).statusCode).toBe(409);
  });

  it("the page's button confirms without the API and says so", async () => {
    const email = "plain-form@example.com";
    const link = await subscribedLink(email);
    const answer = await pressButton(link);
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain("Your subscription is confirmed");
    expect(answer.body).toContain(asHtml(maskEmail(email)));
    expect((await row(email))?.confirmed_at).not.toBeNull();
    expect(await mailKinds(email)).toEqual(["subscription-confirmation", "welcome"]);
    // Pressed again (a reload): still confirmed, no second welcome.
    expect((await pressButton(link)).body).toContain("Your subscription is confirmed");
    expect(await mailKinds(email)).toEqual(["subscription-confirmation", "welcome"]);
  });

  it("the API needs the cross-site token to confirm", async () => {
    const email = "no-xsrf@example.com";
    const token = tokenOf(await subscribedLink(email));
    const answer = await h.t.app.inject({ method: "POST", url: CONFIRM_API, payload: { token } });
    expect(answer.statusCode).toBe(403);
    expect((await row(email))?.confirmed_at).toBeNull();
  });

  it("refuses a forged link, as the API and as the page", async () => {
    const email = "forged@example.com";
    const link = await subscribedLink(email);
    const token = tokenOf(link);
    const forged = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    expect((await checkLink(forged)).statusCode).toBe(404);
    const answer = await confirmByApi(forged);
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toEqual({ message: INVALID_CONFIRM_LINK_MESSAGE });
    link.searchParams.set("token", forged);
    const page = await pressButton(link);
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain("This link is not valid");
    link.searchParams.delete("token");
    expect((await pressButton(link)).statusCode).toBe(404);
    expect((await confirmByApi("1.short")).statusCode).toBe(400);
    expect((await row(email))?.confirmed_at).toBeNull();
    expect(await mailKinds(email)).toEqual(["subscription-confirmation"]);
  });

  it("refuses the link of an earlier subscription of the same address", async () => {
    const email = "earlier@example.com";
    const first = tokenOf(await subscribedLink(email));
    expect((await confirmByApi(first)).statusCode).toBe(200);
    const stored = await row(email);
    await unsubscribe(h.t.database.db, stored?.id ?? 0, CONSENT_VIA.link);
    // Subscribing again: a new request, waiting for its own confirmation.
    const second = tokenOf(await subscribedLink(email, 3));
    expect(second).not.toBe(first);
    expect((await row(email))?.confirmed_at).toBeNull();
    const answer = await confirmByApi(first);
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toEqual({ message: INVALID_CONFIRM_LINK_MESSAGE });
    expect((await row(email))?.confirmed_at).toBeNull();
    expect((await confirmByApi(second)).statusCode).toBe(200);
  });

  it("refuses a link older than NEWSLETTER_CONFIRM_HOURS as expired, before and after the purge", async () => {
    const email = "too-late@example.com";
    const token = await linkFromHoursAgo(email, CONFIRM_HOURS + 1);
    const answer = await confirmByApi(token);
    expect(answer.statusCode).toBe(410);
    expect(answer.json()).toEqual({ message: EXPIRED_CONFIRM_LINK_MESSAGE });
    const page = await pressButton(new URL(`${ORIGIN}/subscribe/confirm?token=${token}`));
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain("This link has expired");
    expect(page.body).toContain("subscribe again with the form at the bottom of this page");
    expect((await row(email))?.confirmed_at).toBeNull();

    await purgeUnconfirmed(h.t.database.db, confirmationLapsedBefore(CONFIRM_HOURS));
    expect(await row(email)).toBeUndefined();
    expect((await confirmByApi(token)).json()).toEqual({ message: EXPIRED_CONFIRM_LINK_MESSAGE });
    expect(await mailKinds(email)).toEqual(["subscription-confirmation"]);
  });

  it("opens a forged, missing or expired link's page on its refusal, with no button to press", async () => {
    const email = "opens-a-bad-link@example.com";
    const token = tokenOf(await subscribedLink(email));
    const forged = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    const expired = await linkFromHoursAgo("opens-a-late-link@example.com", CONFIRM_HOURS + 1);
    const pages = [
      [`?token=${forged}`, 404, "This link is not valid"],
      ["", 404, "This link is not valid"],
      [`?token=${expired}`, 410, "This link has expired"],
    ] as const;
    for (const [query, status, heading] of pages) {
      const page = await h.t.app.inject({ url: `/subscribe/confirm${query}` });
      expect(page.statusCode, query).toBe(status);
      expect(page.headers["content-type"]).toMatch(/^text\/html/);
      expect(page.body, query).toContain(`<h1>${heading}</h1>`);
      expect(page.body, query).not.toContain("Confirm my subscription</button>");
    }
    // The link that still works keeps its button.
    const good = await h.t.app.inject({ url: `/subscribe/confirm?token=${token}` });
    expect(good.statusCode).toBe(200);
    expect(good.body).toContain("Confirm my subscription</button>");
    expect((await row(email))?.confirmed_at).toBeNull();
  });

  it("a link just inside NEWSLETTER_CONFIRM_HOURS still confirms", async () => {
    const email = "just-in-time@example.com";
    const token = await linkFromHoursAgo(email, CONFIRM_HOURS - 1);
    expect((await confirmByApi(token)).json()).toMatchObject({ state: "confirmed" });
  });

  it("subscribing again while waiting sends the same link again and keeps one row", async () => {
    const email = "asks-twice@example.com";
    const first = await subscribedLink(email);
    const { subscribed_at } = (await row(email)) ?? {};
    const second = await subscribedLink(email, 2);
    expect(tokenOf(second)).toBe(tokenOf(first));
    expect(await rows(email)).toHaveLength(1);
    expect((await row(email))?.subscribed_at).toEqual(subscribed_at);
    expect(await mailKinds(email)).toEqual([
      "subscription-confirmation",
      "subscription-confirmation",
    ]);
  });

  it("subscribing again after the link expired starts a new request with a new link", async () => {
    const email = "asks-again-later@example.com";
    const old = await linkFromHoursAgo(email, CONFIRM_HOURS + 1);
    const renewed = tokenOf(await subscribedLink(email, 2));
    expect(renewed).not.toBe(old);
    expect(await rows(email)).toHaveLength(1);
    expect((await confirmByApi(old)).statusCode).toBe(410);
    expect((await confirmByApi(renewed)).json()).toMatchObject({ state: "confirmed" });
  });

  it("the purge deletes only requests that waited too long, and keeps a former subscriber's history", async () => {
    const db = h.t.database.db;
    const ago = (hours: number) => new Date(Date.now() - hours * HOUR_MS).toISOString();
    const waitedTooLong = ago(CONFIRM_HOURS + 1);
    await subscribedLink("purge-fresh@example.com");
    await subscribedLink("purge-stale@example.com");
    await subscribedLink("purge-confirmed@example.com");
    await confirmByApi(
      tokenOf(confirmLink((await h.smtp.waitForMailTo("purge-confirmed@example.com"))[0])),
    );
    // A former subscriber asking to come back, who never confirms.
    await subscribedLink("purge-returning@example.com");
    await confirmByApi(
      tokenOf(confirmLink((await h.smtp.waitForMailTo("purge-returning@example.com"))[0])),
    );
    const returning = await row("purge-returning@example.com");
    await unsubscribe(db, returning?.id ?? 0, CONSENT_VIA.link);
    await subscribedLink("purge-returning@example.com", 3);
    await db
      .updateTable("subscriptions")
      .set({ subscribed_at: waitedTooLong })
      .where("email", "in", [
        "purge-stale@example.com",
        "purge-confirmed@example.com",
        "purge-returning@example.com",
      ])
      .execute();

    const purged = await purgeUnconfirmed(db, confirmationLapsedBefore(CONFIRM_HOURS));
    expect(purged.deleted).toBeGreaterThanOrEqual(1);
    expect(await row("purge-stale@example.com")).toBeUndefined();
    expect(await row("purge-fresh@example.com")).toMatchObject({ confirmed_at: null });
    expect((await row("purge-confirmed@example.com"))?.confirmed_at).not.toBeNull();
    const lapsed = await row("purge-returning@example.com");
    expect(lapsed?.unsubscribed_at).not.toBeNull();
    expect(lapsed?.unsubscribed_via).toBe(LAPSED_VIA);
    expect(await events(lapsed?.id ?? 0)).toEqual([
      { event: "subscribed", via: CONFIRMED_VIA },
      { event: "unsubscribed", via: CONSENT_VIA.link },
    ]);
    // Run again (another instance, the next hour): nothing left to purge.
    expect(await purgeUnconfirmed(db, confirmationLapsedBefore(CONFIRM_HOURS))).toEqual({
      deleted: 0,
      lapsed: 0,
    });
  });

  it("a starting server purges what waited too long", async () => {
    const email = "purged-at-start@example.com";
    await linkFromHoursAgo(email, CONFIRM_HOURS + 1);
    const second = await startApp(engine, DOUBLE_OPT_IN, {
      shared: h.t.testDb,
      withPages: false,
    });
    try {
      await vi.waitFor(async () => expect(await row(email)).toBeUndefined(), {
        timeout: 5000,
        interval: 20,
      });
    } finally {
      await second.close();
    }
  });
});
