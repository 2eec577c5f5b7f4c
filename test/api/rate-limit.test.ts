import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITED_MESSAGE } from "../../src/server/security/rate-limit.ts";
import { openSession, post, type Session, startApp, type TestApp } from "../support/app.ts";
import { ENGINES } from "../support/engines.ts";
import { VALID_INQUIRY } from "../support/fixtures.ts";

const LIMIT = 3;

describe.each(ENGINES)("the write rate limit on $engine", (engine) => {
  let t: TestApp;
  let session: Session;
  beforeAll(async () => {
    t = await startApp(engine, { RATE_LIMIT_PER_MINUTE: String(LIMIT) });
    session = await openSession(t.app);
  });
  afterAll(() => t.close());

  it.each([
    ["/api/v1/subscribe", (i: number) => `/api/v1/subscribe?emailId=limit${i}%40example.com`],
    ["/api/v1/send-comment", () => "/api/v1/send-comment"],
  ])(
    `lets ${LIMIT} writes a minute through %s, then answers 429 with Retry-After`,
    async (_, url) => {
      const send = (i: number) => post(t.app, session, url(i), VALID_INQUIRY);
      for (let i = 0; i < LIMIT; i += 1) {
        expect((await send(i)).statusCode).toBeLessThan(300);
      }
      const refused = await send(LIMIT);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers["content-type"]).toMatch(/application\/json/);
      expect(refused.json()).toEqual({ message: RATE_LIMITED_MESSAGE });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(60);
    },
  );
});
