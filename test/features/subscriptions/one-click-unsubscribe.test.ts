/**
 * The one-click unsubscribe a mail client sends from a message's
 * List-Unsubscribe headers (RFC 8058): a POST to the link, without cookie or
 * XSRF token, whose body says List-Unsubscribe=One-Click as a urlencoded form
 * or as multipart (curl -F, some clients), or is left empty. Each ends the
 * subscription; a repeat answers alike and records nothing more.
 */
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  INVALID_LINK_MESSAGE,
  UNREADABLE_MULTIPART_MESSAGE,
} from "../../../src/server/features/subscriptions/index.ts";
import type { MailMessage } from "../../../src/server/platform/outbox/message.ts";
import { CONSENT_VIA } from "../../../src/shared/admin/subscribers.ts";
import { openSession, post, type Session, startApp, type TestApp } from "../../support/app.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";

const ONE_CLICK_FIELD = ["List-Unsubscribe", "One-Click"] as const;

/** The bodies a one-click POST arrives with, each with the headers that announce it. */
const BODIES = {
  "a multipart body": () => {
    const form = new FormData();
    form.append(...ONE_CLICK_FIELD);
    return { payload: form };
  },
  "a urlencoded body": () => ({
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams([[...ONE_CLICK_FIELD]]).toString(),
  }),
  "no body": () => ({}),
};
type Body = keyof typeof BODIES;
const BODY_NAMES = Object.keys(BODIES) as Body[];

describe.each(SQLITE_ONLY)("one-click unsubscribe on $engine", (engine) => {
  let t: TestApp;
  let session: Session;

  beforeAll(async () => {
    t = await startApp(engine);
    session = await openSession(t.app);
  });
  afterAll(() => t.close());

  /** Subscribes `email` on the website; returns the path and query of its welcome's List-Unsubscribe link. */
  async function oneClickLink(email: string): Promise<string> {
    const subscribed = await post(
      t.app,
      session,
      `/api/v1/subscribe?emailId=${encodeURIComponent(email)}`,
    );
    expect(subscribed.statusCode).toBe(201);
    const rows = await t.database.db
      .selectFrom("outbox")
      .select("message")
      .where("kind", "=", "welcome")
      .execute();
    const welcome = rows
      .map((row) => JSON.parse(row.message) as MailMessage)
      .find((message) => message.to === email);
    const link = /^<(.+)>$/.exec(welcome?.headers?.["List-Unsubscribe"] ?? "")?.[1];
    if (!link) throw new Error(`no List-Unsubscribe link in the welcome to ${email}`);
    const url = new URL(link);
    return `${url.pathname}${url.search}`;
  }

  function oneClick(link: string, body: Body) {
    return t.app.inject({ method: "POST", url: link, ...BODIES[body]() });
  }

  async function subscriptionOf(email: string) {
    return t.database.db
      .selectFrom("subscriptions")
      .select(["id", "unsubscribed_at", "unsubscribed_via"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
  }

  /** The consent history's unsubscriptions of `email`, as "event via". */
  async function unsubscriptionsOf(email: string): Promise<string[]> {
    const { id } = await subscriptionOf(email);
    const events = await t.database.db
      .selectFrom("subscription_events")
      .select(["event", "via"])
      .where("subscription_id", "=", id)
      .where("event", "=", "unsubscribed")
      .execute();
    return events.map(({ event, via }) => `${event} ${via}`);
  }

  function expectUnsubscribedAnswer(response: LightMyRequestResponse) {
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ state: "unsubscribed" });
  }

  it.each(BODY_NAMES)("ends the subscription with %s", async (body) => {
    const email = `${body.replaceAll(" ", "-")}@one-click.example`;
    const link = await oneClickLink(email);

    expectUnsubscribedAnswer(await oneClick(link, body));

    const subscription = await subscriptionOf(email);
    expect(subscription.unsubscribed_at).not.toBeNull();
    expect(subscription.unsubscribed_via).toBe(CONSENT_VIA.oneClick);
    expect(await unsubscriptionsOf(email)).toEqual([`unsubscribed ${CONSENT_VIA.oneClick}`]);
  });

  it("answers a repeated POST alike and records the unsubscription once", async () => {
    const email = "twice@one-click.example";
    const link = await oneClickLink(email);

    expectUnsubscribedAnswer(await oneClick(link, "a multipart body"));
    const { unsubscribed_at: first } = await subscriptionOf(email);
    expectUnsubscribedAnswer(await oneClick(link, "a multipart body"));

    expect((await subscriptionOf(email)).unsubscribed_at).toBe(first);
    expect(await unsubscriptionsOf(email)).toEqual([`unsubscribed ${CONSENT_VIA.oneClick}`]);
  });

  it.each(BODY_NAMES)(
    "refuses a forged token with %s, and the reader stays subscribed",
    async (body) => {
      const email = `forged-${body.replaceAll(" ", "-")}@one-click.example`;
      const link = await oneClickLink(email);
      const forged = link.replace(/.$/, (last) => (last === "A" ? "B" : "A"));

      const response = await oneClick(forged, body);

      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: INVALID_LINK_MESSAGE });
      expect((await subscriptionOf(email)).unsubscribed_at).toBeNull();
    },
  );

  it("refuses a multipart body cut short with 400, and the reader stays subscribed", async () => {
    const email = "cut-short@one-click.example";
    const link = await oneClickLink(email);

    const response = await t.app.inject({
      method: "POST",
      url: link,
      headers: { "content-type": "multipart/form-data; boundary=cut" },
      payload: '--cut\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Cl',
    });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: UNREADABLE_MULTIPART_MESSAGE });
    expect((await subscriptionOf(email)).unsubscribed_at).toBeNull();
  });

  it("refuses a file in a multipart body, and the reader stays subscribed", async () => {
    const email = "with-file@one-click.example";
    const link = await oneClickLink(email);
    const form = new FormData();
    form.append(...ONE_CLICK_FIELD);
    form.append("attachment", new Blob(["not a one-click field"]), "note.txt");

    const response = await t.app.inject({ method: "POST", url: link, payload: form });

    expect(response.statusCode).toBe(413);
    expect((await subscriptionOf(email)).unsubscribed_at).toBeNull();
  });
});
