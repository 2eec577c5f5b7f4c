/**
 * Every route that writes (POST, PUT, PATCH, DELETE) is
 * rate-limited per client address. Walks every registered write route: one
 * address gets its limit's worth of requests and then 429 with the limit's
 * message; another address, behind the same proxy, still has its own count.
 * Public writes share RATE_LIMIT_PER_MINUTE, console writes
 * RATE_LIMIT_CONSOLE_PER_MINUTE unless they declare a stricter one; counted
 * in memory and, with TEST_REDIS_URL, in Redis.
 */
import Fastify, { type LightMyRequestResponse } from "fastify";
import fp from "fastify-plugin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PageRenderer } from "../../../src/server/features/pages/index.ts";
import { createSession } from "../../../src/server/platform/console/sessions.ts";
import limits, {
  RATE_LIMITED_MESSAGE,
  type WriteRoute,
} from "../../../src/server/platform/security/rate-limit.ts";
import { API_PATHS, serverPath } from "../../../src/shared/api-paths.ts";
import { ROUTES, SUBSCRIBE_PATH, UNSUBSCRIBE_PATH } from "../../../src/shared/routes.ts";
import {
  openSession,
  type Session,
  startApp,
  stubRenderer,
  type TestApp,
} from "../../support/app.ts";
import { createAccount } from "../../support/console.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";
import { REDIS_SKIP_REASON, REDIS_URL, redisEnv } from "../../support/redis.ts";

const PUBLIC_LIMIT = 3;
const CONSOLE_LIMIT = 4;
/** Low, so the walk posts a few times to each webhook, not its production 1,200. */
const WEBHOOK_LIMIT = 5;
const PROXY = "127.0.0.1";

/** Every parameter filled with an id no record has, so the walk changes nothing. */
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, "999999");

/** Pages whose form posts answer with the refusal they were given (here: the limit's message). */
function rendererWithForms(): PageRenderer {
  return Object.assign(stubRenderer(), {
    submit: async (_form: unknown, context: { forms: { refusal: string | null } }) => ({
      status: 200,
      html: `<p>${context.forms.refusal ?? "written"}</p>`,
    }),
  }) as PageRenderer;
}

const redisUrl = REDIS_URL;
const STORES = [{ store: "memory", env: () => ({}) }];
if (redisUrl) STORES.push({ store: "Redis", env: () => redisEnv(redisUrl) });
else console.warn(REDIS_SKIP_REASON);

describe.each(SQLITE_ONLY)("write limits on $engine", (engine) => {
  describe.each(STORES)("counted in $store", ({ env }) => {
    let t: TestApp;
    let xsrf: Session;
    let ownerId: number;
    beforeAll(async () => {
      t = await startApp(
        engine,
        {
          ...env(),
          TRUST_PROXY: PROXY,
          RATE_LIMIT_PER_MINUTE: String(PUBLIC_LIMIT),
          RATE_LIMIT_CONSOLE_PER_MINUTE: String(CONSOLE_LIMIT),
          RATE_LIMIT_WEBHOOK_PER_MINUTE: String(WEBHOOK_LIMIT),
        },
        { renderer: rendererWithForms() },
      );
      xsrf = await openSession(t.app);
      ownerId = (await createAccount(t.database, "owner", "limits-owner@firm.example")).id;
    });
    afterAll(() => t.close());

    /**
     * One request from `client` through the proxy. Each carries a session of
     * its own, so a sign-out on the walk ends only that one.
     */
    async function send(route: WriteRoute, client: string): Promise<LightMyRequestResponse> {
      const session = await createSession(
        t.database.db,
        ownerId,
        { ip: client, userAgent: "limit walk" },
        t.app.sessionLimits,
      );
      return t.app.inject({
        method: route.method as "POST",
        url: concrete(route.url),
        remoteAddress: PROXY,
        headers: {
          cookie: `${xsrf.cookie}; console_session=${session}`,
          "x-xsrf-token": xsrf.token,
          "x-forwarded-for": client,
        },
        payload: {},
      });
    }

    const limited = (response: LightMyRequestResponse) => response.statusCode === 429;

    it("knows every write route: the public ones and each console write", () => {
      const writes = t.app.writeRoutes.map((route) => `${route.method} ${route.url}`);
      const publicWrites = [
        `POST ${serverPath(API_PATHS.subscribe)}`,
        `POST ${serverPath(API_PATHS.sendComment)}`,
        `POST ${serverPath(API_PATHS.unsubscribe)}`,
        `POST ${UNSUBSCRIBE_PATH}`,
        // The forms posted without JavaScript.
        `POST ${ROUTES.contactUs}`,
        `POST ${SUBSCRIBE_PATH}`,
      ];
      const consoleWrites = t.app.consoleRoutes
        .filter((route) => route.method !== "GET")
        .map((route) => `${route.method} ${route.url}`);
      expect(consoleWrites.length).toBeGreaterThan(10);
      expect(writes).toEqual(expect.arrayContaining([...publicWrites, ...consoleWrites]));
    });

    it("gives each write its area's limit unless it declares its own", () => {
      for (const route of t.app.writeRoutes.filter((route) => !route.own)) {
        const expected = route.area === "public" ? PUBLIC_LIMIT : CONSOLE_LIMIT;
        expect({ route, max: route.max }).toEqual({ route, max: expected });
      }
      const areas = new Set(t.app.writeRoutes.filter((route) => !route.own).map((r) => r.area));
      expect([...areas].sort()).toEqual(["console", "public"]);
    });

    it("refuses each write's next request from one address with 429, not another address's", async () => {
      let client = 0;
      for (const route of t.app.writeRoutes) {
        client += 1;
        const first = `198.51.100.${client}`;
        const second = `203.0.113.${client}`;
        for (let i = 0; i < route.max; i += 1) {
          const response = await send(route, first);
          expect({ route, i, limited: limited(response) }).toEqual({ route, i, limited: false });
        }
        const refused = await send(route, first);
        expect({ route, status: refused.statusCode }).toEqual({ route, status: 429 });
        if (refused.headers["content-type"]?.toString().startsWith("application/json")) {
          expect(refused.json()).toEqual({ message: RATE_LIMITED_MESSAGE });
        } else {
          expect(refused.body).toContain(RATE_LIMITED_MESSAGE);
        }
        const other = await send(route, second);
        expect({ route, other: limited(other) }).toEqual({ route, other: false });
      }
    });
  });
});

describe("a write route that turns its limit off", () => {
  it("stops the server from starting", async () => {
    const app = Fastify();
    // The limits need the figures only for Redis's, and this app has no Redis.
    await app.register(fp(async () => {}, { name: "metrics" }));
    await app.register(limits, {
      publicWritesPerMinute: 1,
      consoleWritesPerMinute: 1,
      redisKeyPrefix: "unused:",
    });
    expect(() =>
      app.post("/api/v1/unlimited", { config: { rateLimit: false } }, async () => "open"),
    ).toThrow("POST /api/v1/unlimited writes without a rate limit");
    await app.close();
  });
});
