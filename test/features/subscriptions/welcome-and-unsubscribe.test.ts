import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVALID_LINK_MESSAGE } from "../../../src/server/features/subscriptions/index.ts";
import { openSession, post, type Session, startApp, type TestApp } from "../../support/app.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";
import { mailTo } from "../../support/mail-env.ts";
import { header, type ReceivedMail, startSmtp, type TestSmtp } from "../../support/smtp.ts";

const ORIGIN = "https://www.firm.example";

function unsubscribeUrl(mail: ReceivedMail | undefined): URL {
  const value = (mail && header(mail, "list-unsubscribe")) ?? "";
  return new URL(/<([^>]+)>/.exec(value)?.[1] ?? "about:blank");
}

// Each test subscribes its own address and reads only the mail sent to it,
// so the tests pass alone and in any order.
describe.each(SQLITE_ONLY)("newsletter lifecycle on $engine", (engine) => {
  let smtp: TestSmtp;
  let t: TestApp;
  let session: Session;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startApp(engine, mailTo(smtp.url, { PUBLIC_ORIGIN: ORIGIN }));
    session = await openSession(t.app);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const subscribe = (email: string) =>
    post(t.app, session, `/api/v1/subscribe?emailId=${encodeURIComponent(email)}`);
  /** Subscribes `email` and returns the unsubscribe link of its newest welcome. */
  async function subscribedLink(email: string, welcomes = 1): Promise<URL> {
    expect((await subscribe(email)).statusCode).toBe(201);
    const mails = await smtp.waitForMailTo(email.toLowerCase(), welcomes);
    return unsubscribeUrl(mails[welcomes - 1]);
  }
  const consent = (email: string) =>
    t.database.db
      .selectFrom("subscriptions")
      .select(["subscribed_via", "unsubscribed_via", "subscribed_at", "unsubscribed_at"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();

  it("welcomes a new subscriber with one-click unsubscribe headers and a signed link", async () => {
    expect((await subscribe("Reader@Example.com")).statusCode).toBe(201);
    const [welcome] = await smtp.waitForMailTo("reader@example.com");
    if (!welcome) throw new Error("no welcome");
    expect(welcome.recipients).toEqual(["reader@example.com"]);
    expect(welcome.parsed.subject).toContain("Welcome to Insight");
    expect(header(welcome, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const url = unsubscribeUrl(welcome);
    expect(url.origin + url.pathname).toBe(`${ORIGIN}/unsubscribe`);
    expect(url.searchParams.get("token")).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    expect(welcome.parsed.text).toContain(url.toString());
    expect(welcome.parsed.html).toContain(url.toString().replace(/&/g, "&amp;"));
  });

  it("rejects forged and malformed tokens with a clear message", async () => {
    const token = (await subscribedLink("forger@example.com")).searchParams.get("token") ?? "";
    const forged = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    for (const bad of [forged, "1.short", "999999.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]) {
      const response = await t.app.inject({
        url: `/api/v1/unsubscribe?token=${encodeURIComponent(bad)}`,
      });
      expect([400, 404]).toContain(response.statusCode);
    }
    const forgedAnswer = await t.app.inject({ url: `/api/v1/unsubscribe?token=${forged}` });
    expect(forgedAnswer.json()).toEqual({ message: INVALID_LINK_MESSAGE });
  });

  it("unsubscribes with the RFC 8058 one-click POST, which needs no XSRF token", async () => {
    const url = await subscribedLink("oneclick@example.com");
    const before = await t.app.inject({ url: `/api/v1/unsubscribe${url.search}` });
    expect(before.json()).toEqual({ state: "subscribed", email: "on••••••@example.com" });

    const oneClick = await t.app.inject({
      method: "POST",
      url: `/unsubscribe${url.search}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.statusCode).toBe(200);
    const record = await consent("oneclick@example.com");
    expect(record).toMatchObject({ subscribed_via: "website", unsubscribed_via: "one-click" });
    expect(record.unsubscribed_at).not.toBeNull();

    const after = await t.app.inject({ url: `/api/v1/unsubscribe${url.search}` });
    expect(after.json()).toMatchObject({ state: "unsubscribed" });
  });

  it("answers 201 and a new welcome when the address subscribes again; the old link stops working", async () => {
    const email = "returning@example.com";
    const oldUrl = await subscribedLink(email);
    const oneClick = await t.app.inject({ method: "POST", url: `/unsubscribe${oldUrl.search}` });
    expect(oneClick.statusCode).toBe(200);

    const newUrl = await subscribedLink(email, 2);
    expect(newUrl.searchParams.get("token")).not.toBe(oldUrl.searchParams.get("token"));
    expect((await t.app.inject({ url: `/api/v1/unsubscribe${oldUrl.search}` })).statusCode).toBe(
      404,
    );
    expect((await consent(email)).unsubscribed_at).toBeNull();

    const token = newUrl.searchParams.get("token");
    const withoutXsrf = await t.app.inject({
      method: "POST",
      url: "/api/v1/unsubscribe",
      payload: { token },
    });
    expect(withoutXsrf.statusCode).toBe(403);
    const confirmed = await post(t.app, session, "/api/v1/unsubscribe", { token });
    expect(confirmed.json()).toMatchObject({ state: "unsubscribed" });
    expect(await consent(email)).toMatchObject({ unsubscribed_via: "unsubscribe page" });
  });
});
