/**
 * TRUST_PROXY: which X-Forwarded-* headers the server believes. A client can
 * write any X-Forwarded-For it likes; a proxy appends the address it saw, so
 * only the entries added by the site's own proxies may count. request.ip is
 * what the write limit counts, so a believed forgery is a fresh limit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STRICT_TRANSPORT_SECURITY } from "../../../src/server/platform/security/headers.ts";
import { openSession, type Session, startApp, type TestApp } from "../../support/app.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";

const LIMIT = 5;
const PROXY = "10.0.0.7";
const CLIENT = "203.0.113.9";

/** Subscribes one new address per request, each claiming to come from `forwardedFor(i)`. */
async function subscribeFrom(
  t: TestApp,
  session: Session,
  count: number,
  peer: string,
  forwardedFor: (i: number) => string,
) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await t.app.inject({
      method: "POST",
      url: `/api/v1/subscribe?emailId=${peer}-${i}%40example.com`,
      remoteAddress: peer,
      headers: {
        cookie: session.cookie,
        "x-xsrf-token": session.token,
        "x-forwarded-for": forwardedFor(i),
      },
    });
    statuses.push(response.statusCode);
  }
  return statuses;
}

const created = (statuses: number[]) => statuses.filter((status) => status === 201).length;
const forged = (i: number) => `198.51.${Math.floor(i / 250)}.${i % 250}`;

describe.each(SQLITE_ONLY)("client addresses behind a proxy on $engine", (engine) => {
  describe("with TRUST_PROXY=1 (one proxy in front)", () => {
    let t: TestApp;
    let session: Session;
    beforeAll(async () => {
      t = await startApp(engine, { TRUST_PROXY: "1", RATE_LIMIT_PER_MINUTE: String(LIMIT) });
      session = await openSession(t.app);
    });
    afterAll(() => t.close());

    it("counts the address the proxy saw, whatever the client forged to its left", async () => {
      const statuses = await subscribeFrom(
        t,
        session,
        200,
        PROXY,
        (i) => `${forged(i)}, ${CLIENT}`,
      );
      expect(created(statuses)).toBe(LIMIT);
      expect(statuses.slice(LIMIT).every((status) => status === 429)).toBe(true);
    });

    it("believes the proxy's X-Forwarded-Proto", async () => {
      const response = await t.app.inject({
        url: "/",
        remoteAddress: PROXY,
        headers: { "x-forwarded-proto": "https" },
      });
      expect(response.cookies.find((c) => c.name === "XSRF-TOKEN")?.secure).toBe(true);
    });
  });

  describe("with TRUST_PROXY set to a list of proxy addresses", () => {
    let t: TestApp;
    let session: Session;
    beforeAll(async () => {
      t = await startApp(engine, {
        TRUST_PROXY: "127.0.0.1, 10.0.0.0/8",
        RATE_LIMIT_PER_MINUTE: String(LIMIT),
      });
      session = await openSession(t.app);
    });
    afterAll(() => t.close());

    it("believes X-Forwarded-For from a listed proxy: each client has its own limit", async () => {
      const statuses = await subscribeFrom(t, session, LIMIT * 2, PROXY, forged);
      expect(created(statuses)).toBe(LIMIT * 2);
    });

    it("ignores X-Forwarded-For from anyone else", async () => {
      const stranger = "192.0.2.44";
      const statuses = await subscribeFrom(t, session, LIMIT * 4, stranger, forged);
      expect(created(statuses)).toBe(LIMIT);
    });

    it("believes X-Forwarded-Proto only from a listed proxy", async () => {
      const https = { "x-forwarded-proto": "https" };
      const viaProxy = await t.app.inject({ url: "/", remoteAddress: PROXY, headers: https });
      expect(viaProxy.headers["strict-transport-security"]).toBe(STRICT_TRANSPORT_SECURITY);
      const direct = await t.app.inject({ url: "/", remoteAddress: "192.0.2.44", headers: https });
      expect(direct.headers["strict-transport-security"]).toBeUndefined();
      expect(direct.cookies.find((c) => c.name === "XSRF-TOKEN")?.secure).toBeUndefined();
    });
  });
});
