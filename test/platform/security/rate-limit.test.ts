import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITED_MESSAGE } from "../../../src/server/platform/security/rate-limit.ts";
import {
  REDIS_BACK_MESSAGE,
  REDIS_DOWN_MESSAGE,
} from "../../../src/server/platform/security/redis-client.ts";
import { openSession, post, type Session, startApp, type TestApp } from "../../support/app.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";
import { VALID_INQUIRY } from "../../support/fixtures.ts";
import { REDIS_SKIP_REASON, REDIS_URL, redisEnv, redisRelay } from "../../support/redis.ts";

if (!REDIS_URL) console.warn(REDIS_SKIP_REASON);

const LIMIT = 3;

describe.each(SQLITE_ONLY)("the write rate limit on $engine", (engine) => {
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

const redisClients = async (url: string) => {
  const probe = new Redis(url);
  const list = String(await probe.client("LIST"));
  await probe.quit();
  return list;
};

describe.each(SQLITE_ONLY)("the write limit counted in Redis on $engine", (engine) => {
  let subscribed = 0;
  const subscriber = () => {
    subscribed += 1;
    return `/api/v1/subscribe?emailId=redis${subscribed}%40example.com`;
  };
  const subscribe = async (t: TestApp) =>
    (await post(t.app, await openSession(t.app), subscriber())).statusCode;
  const statuses = async (apps: TestApp[], count: number) => {
    const answers: number[] = [];
    for (let i = 0; i < count; i += 1)
      answers.push(await subscribe(apps[i % apps.length] as TestApp));
    return answers;
  };
  const accepted = (answers: number[]) => answers.filter((status) => status === 201).length;

  describe.skipIf(!REDIS_URL)("with TEST_REDIS_URL", () => {
    const url = REDIS_URL as string;

    it("two apps with one Redis let the limit through once between them", async () => {
      const env = { ...redisEnv(url), RATE_LIMIT_PER_MINUTE: String(LIMIT) };
      const apps = [await startApp(engine, env), await startApp(engine, env)];
      try {
        const answers = await statuses(apps, LIMIT * 3);
        expect(accepted(answers)).toBe(LIMIT);
        expect(answers.slice(LIMIT).every((status) => status === 429)).toBe(true);
      } finally {
        await Promise.all(apps.map((t) => t.close()));
      }
    });

    it("closes its Redis connection when the app closes", async () => {
      const env = redisEnv(url);
      const t = await startApp(engine, env);
      const name = `name=${env.REDIS_KEY_PREFIX}rate-limit:`;
      expect(await redisClients(url)).toContain(name);
      await t.close();
      await expect.poll(() => redisClients(url)).not.toContain(name);
    });

    it("lets writes through while Redis is away, says so once, and counts again when it is back", async () => {
      const relay = await redisRelay(url);
      const t = await startApp(engine, {
        ...redisEnv(url),
        REDIS_URL: relay.url,
        RATE_LIMIT_PER_MINUTE: String(LIMIT),
      });
      const logged = (message: string) => t.logs.filter((line) => line.includes(message));
      try {
        expect(await statuses([t], LIMIT + 1)).toEqual([...Array(LIMIT).fill(201), 429]);

        relay.cut();
        await expect.poll(() => logged(REDIS_DOWN_MESSAGE).length).toBe(1);
        expect(await statuses([t], LIMIT * 2)).toEqual(Array(LIMIT * 2).fill(201));
        expect(JSON.parse(logged(REDIS_DOWN_MESSAGE)[0] as string).level).toBe(50);

        // Once, however often the client tries again meanwhile.
        await expect.poll(relay.dropped).toBeGreaterThanOrEqual(3);
        expect(logged(REDIS_DOWN_MESSAGE)).toHaveLength(1);
        relay.restore();
        await expect.poll(() => logged(REDIS_BACK_MESSAGE).length, { timeout: 10_000 }).toBe(1);
        expect(await subscribe(t)).toBe(429);
        expect(logged(REDIS_DOWN_MESSAGE)).toHaveLength(1);
      } finally {
        await t.close();
        await relay.close();
      }
    });
  });

  it("without Redis, each app counts alone (the control)", async () => {
    const env = { RATE_LIMIT_PER_MINUTE: String(LIMIT) };
    const apps = [await startApp(engine, env), await startApp(engine, env)];
    try {
      expect(accepted(await statuses(apps, LIMIT * 3))).toBe(LIMIT * 2);
    } finally {
      await Promise.all(apps.map((t) => t.close()));
    }
  });

  it("starts and answers writes when Redis cannot be reached, logging why they are not counted", async () => {
    // Nothing listens on port 1: the connection is refused at once.
    const t = await startApp(engine, {
      REDIS_URL: "redis://127.0.0.1:1",
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
    });
    try {
      expect(await statuses([t], LIMIT * 2)).toEqual(Array(LIMIT * 2).fill(201));
      expect(t.logs.some((line) => line.includes(REDIS_DOWN_MESSAGE))).toBe(true);
    } finally {
      await t.close();
    }
  });
});
