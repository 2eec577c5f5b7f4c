/**
 * Walks every registered /api/admin route and proves the
 * server enforces its declared role: anonymous → 401, a weaker role → 403,
 * the declared role gets past the gate. A route that declares no role stops
 * the server from starting.
 */
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import consoleAuth from "../../../src/server/platform/console/gate.ts";
import xsrf, { XSRF_REJECTED_MESSAGE } from "../../../src/server/platform/security/xsrf.ts";
import { AUTH_TEXTS } from "../../../src/shared/admin/auth.ts";
import { ROLES, type Role } from "../../../src/shared/admin/roles.ts";
import { LARGEST_ROW_ID } from "../../../src/shared/row-id.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { anonymous, type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { ENGINES } from "../../support/engines.ts";

/**
 * A path to call for a route pattern: every parameter filled with an id no
 * record has, so a walk that gets past the gate changes nothing (a DELETE
 * of person 1 would remove the walk's own viewer).
 */
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, "999999");

describe.each(ENGINES)("console authorisation on $engine", (engine) => {
  let t: TestApp;
  const clients = {} as Record<Role, ConsoleClient>;
  beforeAll(async () => {
    t = await startApp(engine);
    for (const role of ROLES) {
      await createAccount(t.database, role, `walk-${role}@firm.example`);
      clients[role] = await signIn(t.app, `walk-${role}@firm.example`);
    }
  });
  afterAll(() => t.close());

  const guarded = () => t.app.consoleRoutes.filter((route) => route.role !== "public");

  it("has routes for every role to walk", () => {
    const declared = new Set(guarded().map((route) => route.role));
    expect(guarded().length).toBeGreaterThanOrEqual(40);
    expect([...declared].sort()).toEqual(["editor", "owner", "viewer"]);
  });

  it("answers 401 to anonymous requests on every guarded route", async () => {
    const stranger = await anonymous(t.app);
    for (const route of guarded()) {
      const response = await stranger.request(route.method, concrete(route.url), {});
      expect({ route, status: response.statusCode }).toEqual({ route, status: 401 });
    }
  });

  it("answers 403 to every role weaker than the route's", async () => {
    for (const route of guarded()) {
      const needed = ROLES.indexOf(route.role as Role);
      for (const role of ROLES.slice(0, needed)) {
        const response = await clients[role].request(route.method, concrete(route.url), {});
        expect({ route, role, status: response.statusCode }).toEqual({ route, role, status: 403 });
        expect(response.json()).toEqual({ message: AUTH_TEXTS.roleTooWeak });
      }
    }
  });

  it("lets the declared role past the gate", async () => {
    for (const route of guarded()) {
      // Sign-out routes would end the walking session; they are walked above.
      if (route.method === "DELETE" && /\/sessions?$/.test(route.url)) continue;
      const response = await clients[route.role as Role].request(
        route.method,
        concrete(route.url),
        {},
      );
      const gated =
        response.statusCode === 401 ||
        (response.statusCode === 403 && response.json().message === AUTH_TEXTS.roleTooWeak);
      expect({ route, gated }).toEqual({ route, gated: false });
    }
  });
});

describe.each(ENGINES)("console ids out of range on $engine", (engine) => {
  let t: TestApp;
  let owner: ConsoleClient;
  beforeAll(async () => {
    t = await startApp(engine);
    await createAccount(t.database, "owner", "range-owner@firm.example");
    owner = await signIn(t.app, "range-owner@firm.example");
  });
  afterAll(() => t.close());

  it("are refused as the request's fault, never answered 500", async () => {
    const withIds = t.app.consoleRoutes.filter(
      (route) => route.role !== "public" && route.url.includes(":"),
    );
    expect(withIds.length).toBeGreaterThan(10);
    for (const route of withIds) {
      const url = route.url.replace(/:[A-Za-z]+/g, String(LARGEST_ROW_ID + 1));
      const response = await owner.request(route.method, url, {});
      expect({ route, status: response.statusCode }).toEqual({ route, status: 400 });
    }
  });
});

describe.each(ENGINES)("console writes on $engine", (engine) => {
  let t: TestApp;
  let owner: ConsoleClient;
  beforeAll(async () => {
    t = await startApp(engine);
    await createAccount(t.database, "owner", "xsrf-owner@firm.example");
    owner = await signIn(t.app, "xsrf-owner@firm.example");
  });
  afterAll(() => t.close());

  it("are refused without the cross-site token, even for a signed-in owner", async () => {
    const writes = t.app.consoleRoutes.filter((route) => route.method !== "GET");
    expect(writes.length).toBeGreaterThan(10);
    for (const route of writes) {
      const response = await t.app.inject({
        method: route.method as "POST",
        url: concrete(route.url),
        headers: { cookie: owner.cookie },
        payload: {},
      });
      expect({ route, status: response.statusCode }).toEqual({ route, status: 403 });
      expect(response.json()).toEqual({ message: XSRF_REJECTED_MESSAGE });
    }
  });
});

describe("a console route without a role", () => {
  it("stops the server from starting", async () => {
    const app = Fastify();
    await app.register(xsrf, { origin: "http://localhost:3000", secret: "s".repeat(32) });
    await app.register(consoleAuth, {
      database: {} as never,
      limits: { idleMs: 1000, maxMs: 1000 },
    });
    expect(() => app.get("/api/admin/forgotten", async () => "open")).toThrow(
      "GET /api/admin/forgotten declares no role",
    );
    await app.close();
  });
});
