/**
 * The console's page: one HTML file for /admin and every path below it
 * (the app routes in the browser), never cached and never indexed; its
 * hashed assets cached for good. Without a built console, /admin is simply
 * not served.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ASSET_CACHE_CONTROL } from "../../../src/server/platform/static/site.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { ENGINES, type EngineCase } from "../../support/engines.ts";

/** The files are the same whatever the engine. */
const SQLITE = ENGINES[0] as EngineCase;
const PAGE = "<!doctype html><title>Console</title><div id=root></div>";
const BIG_SCRIPT = "console.log('a precompressed console asset');".repeat(100);

function builtConsole(): string {
  const dir = mkdtempSync(join(tmpdir(), "console-build-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), PAGE);
  writeFileSync(join(dir, "assets", "index-abc123.js"), "console.log('console');");
  // A file the build precompressed (scripts/precompress.ts).
  writeFileSync(join(dir, "assets", "big-def456.js"), BIG_SCRIPT);
  writeFileSync(join(dir, "assets", "big-def456.js.br"), brotliCompressSync(BIG_SCRIPT));
  writeFileSync(join(dir, "assets", "big-def456.js.gz"), gzipSync(BIG_SCRIPT));
  return dir;
}

describe("the console's files", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(SQLITE, { ADMIN_DIR: builtConsole() });
  });
  afterAll(() => t.close());

  it.each(["/admin", "/admin/inquiries/12", "/admin/set-password"])(
    "answers %s with the app's page, uncached and unindexed",
    async (url) => {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(PAGE);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(response.headers["x-robots-tag"]).toBe("noindex");
      expect(response.headers["content-security-policy"]).toContain("script-src 'self'");
      // The page carries the cross-site token the console's writes repeat.
      expect(response.cookies.map((c) => c.name)).toContain("XSRF-TOKEN");
    },
  );

  it("serves the hashed assets for good", async () => {
    const response = await t.app.inject({ url: "/admin/assets/index-abc123.js" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe(ASSET_CACHE_CONTROL);
  });

  it.each([
    ["br", "br"],
    ["gzip", "gzip"],
    ["identity", undefined],
  ])(
    "sends a precompressed asset asked with %s with Vary: Accept-Encoding",
    async (accepted, sent) => {
      const response = await t.app.inject({
        url: "/admin/assets/big-def456.js",
        headers: { "accept-encoding": accepted },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-encoding"]).toBe(sent);
      expect(response.headers.vary).toMatch(/\bAccept-Encoding\b/i);
    },
  );

  it("does not serve the console without its build", async () => {
    const bare = await startApp(SQLITE, {
      ADMIN_DIR: join(tmpdir(), "no-console-here"),
    });
    try {
      const response = await bare.app.inject({ url: "/admin" });
      expect(response.body).not.toBe(PAGE);
      expect(response.headers["x-robots-tag"]).toBeUndefined();
    } finally {
      await bare.close();
    }
  });
});
