import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { XSRF_REJECTED_MESSAGE } from "../../src/server/security/xsrf.ts";
import { openSession, startApp, type TestApp } from "../support/app.ts";
import { ENGINES } from "../support/engines.ts";
import { VALID_INQUIRY } from "../support/fixtures.ts";

describe.each(ENGINES)("cross-site request token on $engine", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(engine, { TRUST_PROXY: "127.0.0.1" });
  });
  afterAll(() => t.close());

  it("issues a script-readable SameSite=Lax cookie with the first page", async () => {
    const response = await t.app.inject({ method: "GET", url: "/contact-us" });
    const cookie = response.cookies.find((c) => c.name === "XSRF-TOKEN");
    expect(cookie).toMatchObject({ path: "/", sameSite: "Lax" });
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
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
});
