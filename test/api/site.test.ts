import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_UNREACHABLE_MESSAGE } from "../../src/server/ops/health.ts";
import { ASSET_CACHE_CONTROL, HTML_CACHE_CONTROL } from "../../src/server/static/site.ts";
import { HOME_MARKER, startApp, stubSite, type TestApp } from "../support/app.ts";
import { ENGINES } from "../support/engines.ts";

const [sqlite] = ENGINES;

describe("serving the built site", () => {
  let t: TestApp;
  const root = stubSite();
  const script = "console.log('a hashed asset');".repeat(100);
  beforeAll(async () => {
    mkdirSync(join(root, "assets"));
    writeFileSync(join(root, "assets", "app-Ab12Cd.js"), script);
    mkdirSync(join(root, "wedo"));
    writeFileSync(join(root, "wedo", "index.html"), "<h1>What We Do</h1>");
    if (!sqlite) throw new Error("SQLite engine missing");
    t = await startApp(sqlite, { STATIC_DIR: root });
  });
  afterAll(() => t.close());

  it.each(["/wedo"])(
    "serves the prerendered page at %s, revalidated on every load",
    async (url) => {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain("What We Do");
      expect(response.headers["cache-control"]).toBe(HTML_CACHE_CONTROL);
      expect(response.headers["content-type"]).toMatch(/text\/html/);
    },
  );

  it.each([
    ["/WESERVE", "/weserve"],
    ["/weserve/", "/weserve"],
    ["/WeDo//", "/wedo"],
    ["/contact-us/?ref=mail", "/contact-us?ref=mail"],
  ])("redirects %s with 301 to the canonical %s", async (url, location) => {
    const response = await t.app.inject({ url });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe(location);
  });

  it.each(["/wedo", "/", "/assets/app-Ab12Cd.js", "/api/v1/teams/", "/Nope/"])(
    "leaves %s where it is",
    async (url) => {
      expect((await t.app.inject({ url })).statusCode).not.toBe(301);
    },
  );

  it("serves hashed assets as immutable for a year", async () => {
    const response = await t.app.inject({ url: "/assets/app-Ab12Cd.js" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe(ASSET_CACHE_CONTROL);
  });

  it.each(["br", "gzip"])("compresses responses with %s", async (encoding) => {
    const asset = await t.app.inject({
      url: "/assets/app-Ab12Cd.js",
      headers: { "accept-encoding": encoding },
    });
    expect(asset.headers["content-encoding"]).toBe(encoding);
    expect(asset.rawPayload.length).toBeLessThan(script.length / 5);
    const api = await t.app.inject({
      url: "/api/v1/teams/",
      headers: { "accept-encoding": encoding },
    });
    expect(api.headers["content-encoding"]).toBe(encoding);
  });

  it.each(["/no-such-page", "/weserve/deeper/path"])(
    "shows the Home page with status 404 at %s",
    async (url) => {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain(HOME_MARKER);
      expect(response.headers["content-type"]).toMatch(/text\/html/);
    },
  );

  it("sends a Content-Security-Policy that allows the page's inline script by hash only", async () => {
    const response = await t.app.inject({ url: "/" });
    const csp = String(response.headers["content-security-policy"]);
    const scriptSrc = csp.split(";").find((directive) => directive.startsWith("script-src "));
    const sources = scriptSrc?.split(" ").slice(1) ?? [];
    expect(sources[0]).toBe("'self'");
    expect(sources.slice(1)).not.toHaveLength(0);
    for (const source of sources.slice(1)) expect(source).toMatch(/^'sha256-[A-Za-z0-9+/=]+'$/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("answers the health probes", async () => {
    expect((await t.app.inject({ url: "/healthz" })).json()).toEqual({ status: "ok" });
    expect((await t.app.inject({ url: "/readyz" })).json()).toEqual({ status: "ready" });
  });
});

describe("readiness without a database", () => {
  it("answers /readyz with 503 once the database is gone", async () => {
    if (!sqlite) throw new Error("SQLite engine missing");
    const t = await startApp(sqlite);
    await t.database.db.destroy();
    const response = await t.app.inject({ url: "/readyz" });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ message: DATABASE_UNREACHABLE_MESSAGE });
    await t.app.close();
  });
});

describe("without a built site (npm run dev)", () => {
  it("serves the API and answers other paths with a plain 404", async () => {
    if (!sqlite) throw new Error("SQLite engine missing");
    const t = await startApp(sqlite, { STATIC_DIR: "/nonexistent/site" });
    expect((await t.app.inject({ url: "/api/v1/teams/" })).statusCode).toBe(200);
    const page = await t.app.inject({ url: "/weserve" });
    expect(page.statusCode).toBe(404);
    expect(page.json()).toEqual({ message: "Not found" });
    await t.close();
  });
});
