import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CROSS_SITE_REJECTED_MESSAGE,
  TOKEN_PATTERN,
  XSRF_REJECTED_MESSAGE,
} from "../../../src/server/platform/security/xsrf.ts";
import { openSession, post, startApp, type TestApp } from "../../support/app.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";
import { VALID_INQUIRY } from "../../support/fixtures.ts";

describe.each(SQLITE_ONLY)("cross-site request token on $engine", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(engine, { TRUST_PROXY: "127.0.0.1" });
  });
  afterAll(() => t.close());

  it("issues a script-readable SameSite=Lax cookie with the first page", async () => {
    const response = await t.app.inject({ method: "GET", url: "/contact-us" });
    const cookie = response.cookies.find((c) => c.name === "XSRF-TOKEN");
    expect(cookie).toMatchObject({ path: "/", sameSite: "Lax" });
    expect(cookie?.value).toMatch(TOKEN_PATTERN);
    expect(cookie?.httpOnly).toBeUndefined();
    expect(cookie?.secure).toBeUndefined();
  });

  it("marks the cookie Secure when the site is served over HTTPS", async () => {
    const response = await t.app.inject({ url: "/", headers: { "x-forwarded-proto": "https" } });
    expect(response.cookies.find((c) => c.name === "XSRF-TOKEN")?.secure).toBe(true);
  });

  it("keeps a valid token and sets no cookie on static files", async () => {
    const { cookie } = await openSession(t.app);
    const again = await t.app.inject({ url: "/", headers: { cookie } });
    expect(again.cookies).toEqual([]);
    const file = await t.app.inject({ url: "/index.html" });
    expect(file.cookies).toEqual([]);
  });

  it("sets no cookie on API answers other than the token endpoint", async () => {
    for (const url of ["/api/v1/teams/", "/api/v1/items/?category=ethos"]) {
      expect((await t.app.inject({ url })).cookies).toEqual([]);
    }
    const token = await t.app.inject({ url: "/api/v1/xsrf" });
    expect(token.cookies.find((c) => c.name === "XSRF-TOKEN")?.value).toBe(token.json().token);
  });

  const posts = [
    ["/api/v1/subscribe?emailId=x%40example.com", undefined],
    ["/api/v1/send-comment", VALID_INQUIRY],
  ] as const;

  it.each(posts)("answers 403 to POST %s without the header", async (url, payload) => {
    const { cookie } = await openSession(t.app);
    const response = await t.app.inject({
      method: "POST",
      url,
      headers: { cookie },
      ...(payload ? { payload } : {}),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: XSRF_REJECTED_MESSAGE });
  });

  it.each(posts)(
    "answers 403 to POST %s with a header that does not match the cookie",
    async (url, payload) => {
      const { cookie, token } = await openSession(t.app);
      const wrong = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
      const response = await t.app.inject({
        method: "POST",
        url,
        headers: { cookie, "x-xsrf-token": wrong },
        ...(payload ? { payload } : {}),
      });
      expect(response.statusCode).toBe(403);
    },
  );

  it("answers 403 to a POST with a header but no cookie", async () => {
    const { token } = await openSession(t.app);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v1/subscribe?emailId=x%40example.com",
      headers: { "x-xsrf-token": token },
    });
    expect(response.statusCode).toBe(403);
  });

  /** A write with a valid token and these headers: a new address each time, so each may be stored. */
  async function subscribeWith(headers: Record<string, string>) {
    const session = await openSession(t.app);
    return t.app.inject({
      method: "POST",
      url: `/api/v1/subscribe?emailId=${crypto.randomUUID()}%40example.com`,
      headers: { cookie: session.cookie, "x-xsrf-token": session.token, ...headers },
    });
  }

  it.each<Record<string, string>>([
    { "sec-fetch-site": "cross-site" },
    { "sec-fetch-site": "same-site" },
    { origin: "https://evil.example" },
    { origin: "http://localhost:3000.evil.example" },
  ])(
    "answers 403 to a write with a valid token whose browser says it came from another site: %o",
    async (headers) => {
      const response = await subscribeWith(headers);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: CROSS_SITE_REJECTED_MESSAGE });
    },
  );

  it.each<Record<string, string>>([
    {},
    { "sec-fetch-site": "same-origin", origin: "http://localhost:3000" },
    { "sec-fetch-site": "none" },
    { origin: "null" },
    // The origin the request was sent to, when it is not the public one (a second host name).
    { origin: "http://localhost:80" },
  ])("accepts a write from the site itself: %o", async (headers) => {
    expect((await subscribeWith(headers)).statusCode).toBe(201);
  });

  it("treats a cookie whose signature fails as absent: the write is refused and a page issues a new one", async () => {
    const { token } = await openSession(t.app);
    const [random, issued] = token.split(".");
    const forged = `${random}.${issued}.${"A".repeat(43)}`;
    expect(forged).toMatch(TOKEN_PATTERN);
    const refused = await post(
      t.app,
      { cookie: `XSRF-TOKEN=${forged}`, token: forged },
      "/api/v1/subscribe?emailId=forged%40example.com",
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: XSRF_REJECTED_MESSAGE });
    const page = await t.app.inject({ url: "/", headers: { cookie: `XSRF-TOKEN=${forged}` } });
    const fresh = page.cookies.find((c) => c.name === "XSRF-TOKEN")?.value;
    expect(fresh).toMatch(TOKEN_PATTERN);
    expect(fresh).not.toBe(forged);
  });

  it("refuses a token signed under another secret, such as one issued before the secret changed", async () => {
    const other = await startApp(engine, {
      UNSUBSCRIBE_SECRET: "another-secret-of-thirty-two-chars-or-more",
    });
    try {
      const session = await openSession(other.app);
      const response = await post(t.app, session, "/api/v1/subscribe?emailId=other%40example.com");
      expect(response.statusCode).toBe(403);
    } finally {
      await other.close();
    }
  });
});
