import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HTML_CACHE_CONTROL } from "../../../src/server/features/pages/index.ts";
import {
  DATABASE_UNREACHABLE_MESSAGE,
  PAGES_BROKEN_MESSAGE,
} from "../../../src/server/platform/ops/health.ts";
import {
  ASSET_CACHE_CONTROL,
  ICON_CACHE_CONTROL,
} from "../../../src/server/platform/static/site.ts";
import { NOT_FOUND_PATH, PAGE_PATHS } from "../../../src/shared/routes.ts";
import { HOME_MARKER, startApp, stubSite, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";

const [sqlite] = ENGINES;
const PRECOMPRESSED_FILES = ["assets/style-Ef34Gh.css", "manifest.webmanifest"];
const ENCODINGS = [
  ["br", "br"],
  ["gzip", "gzip"],
  ["identity", undefined],
  [undefined, undefined],
] as const;

describe("serving the built site", () => {
  let t: TestApp;
  const root = stubSite();
  const script = "console.log('a hashed asset');".repeat(100);
  beforeAll(async () => {
    mkdirSync(join(root, "assets"));
    writeFileSync(join(root, "assets", "app-Ab12Cd.js"), script);
    // Files the build precompressed (scripts/precompress.ts): a hashed asset and a public file.
    for (const file of PRECOMPRESSED_FILES) {
      writeFileSync(join(root, file), script);
      writeFileSync(join(root, `${file}.br`), brotliCompressSync(script));
      writeFileSync(join(root, `${file}.gz`), gzipSync(script));
    }
    writeFileSync(join(root, "photo.jpg"), "not really a photo");
    if (!sqlite) throw new Error("SQLite engine missing");
    t = await startApp(sqlite, { STATIC_DIR: root });
  });
  afterAll(() => t.close());

  it("serves a rendered page, revalidated on every load", async () => {
    const response = await t.app.inject({ url: "/wedo" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("<h1>Page /wedo</h1>");
    expect(response.headers["cache-control"]).toBe(HTML_CACHE_CONTROL);
    expect(response.headers["content-type"]).toMatch(/text\/html/);
  });

  it("renders each page once, then serves it from memory", async () => {
    // No page kept from the tests before this one: every page has yet to be rendered.
    t.app.pages?.clear();
    const before = t.renderer.renders.length;
    for (const url of PAGE_PATHS) await t.app.inject({ url });
    await t.app.inject({ url: "/weare" });
    await t.app.inject({ url: "/no-such-page" });
    expect(t.renderer.renders.slice(before).sort()).toEqual([...PAGE_PATHS, NOT_FOUND_PATH].sort());
  });

  it("renders again once the cache is cleared (content changed)", async () => {
    const before = t.renderer.renders.length;
    t.app.pages?.clear();
    await t.app.inject({ url: "/weare" });
    await t.app.inject({ url: "/weare" });
    expect(t.renderer.renders.slice(before)).toEqual(["/weare"]);
  });

  it("answers 304 to a browser that has the page already", async () => {
    const first = await t.app.inject({ url: "/weserve" });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const again = await t.app.inject({ url: "/weserve", headers: { "if-none-match": etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    expect(again.headers.etag).toBe(etag);
  });

  it.each(["br", "gzip"] as const)(
    "sends pages precompressed with %s, under their own ETag",
    async (encoding) => {
      const plain = await t.app.inject({
        url: "/contact-us",
        headers: { "accept-encoding": "identity" },
      });
      const packed = await t.app.inject({
        url: "/contact-us",
        headers: { "accept-encoding": `${encoding}, deflate` },
      });
      expect(packed.headers["content-encoding"]).toBe(encoding);
      expect(packed.headers.vary).toMatch(/Accept-Encoding/i);
      const unpacked =
        encoding === "br" ? brotliDecompressSync(packed.rawPayload) : gunzipSync(packed.rawPayload);
      expect(unpacked.toString()).toBe(plain.body);
      expect(packed.headers.etag).toBe(String(plain.headers.etag).replace(/"$/, `-${encoding}"`));
    },
  );

  describe.each(ENCODINGS)("with Accept-Encoding: %s", (accepted, sent) => {
    const headers = accepted ? { "accept-encoding": accepted } : {};

    it.each(PRECOMPRESSED_FILES)(
      "sends %s with Vary: Accept-Encoding, as the file has variants",
      async (url) => {
        const response = await t.app.inject({ url: `/${url}`, headers });
        expect(response.statusCode).toBe(200);
        expect(response.headers["content-encoding"]).toBe(sent);
        expect(response.headers.vary).toMatch(/\bAccept-Encoding\b/i);
      },
    );

    it("sends a file without variants with no Vary", async () => {
      const response = await t.app.inject({ url: "/photo.jpg", headers });
      expect(response.statusCode).toBe(200);
      expect(response.headers.vary).toBeUndefined();
    });

    it.each([...PAGE_PATHS, "/weserve/case-studies/a-study", "/no-such-page"])(
      // The page may carry the XSRF cookie: a shared cache must never hand it to another visitor.
      "sends the page %s revalidated on every load, never cached as public",
      async (url) => {
        const response = await t.app.inject({ url, headers });
        expect(response.headers["content-type"]).toMatch(/text\/html/);
        expect(response.headers["content-encoding"]).toBe(sent);
        expect(response.headers["cache-control"]).toBe(HTML_CACHE_CONTROL);
        expect(HTML_CACHE_CONTROL).not.toMatch(/public|max-age/);
      },
    );
  });

  it.each([
    ["/WESERVE", "/weserve"],
    ["/weserve/", "/weserve"],
    ["/WeDo//", "/wedo"],
    ["/contact-us/?ref=mail", "/contact-us?ref=mail"],
    ["/weserve/case-studies/a-study/", "/weserve/case-studies/a-study"],
    ["/insight/an-issue/?ref=mail", "/insight/an-issue?ref=mail"],
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

  it.each(["/", "/wedo"])(
    "sends %s with a Content-Security-Policy that allows its own inline script by hash only",
    async (url) => {
      const response = await t.app.inject({ url });
      const csp = String(response.headers["content-security-policy"]);
      const scriptSrc = csp.split(";").find((directive) => directive.startsWith("script-src "));
      const inline = `window.page=${JSON.stringify(url)}`;
      const hash = `'sha256-${createHash("sha256").update(inline).digest("base64")}'`;
      expect(scriptSrc?.split(" ").slice(1)).toEqual(["'self'", hash]);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
    },
  );

  it("allows no inline script on other answers", async () => {
    const csp = String(
      (await t.app.inject({ url: "/api/v1/teams/" })).headers["content-security-policy"],
    );
    expect(csp.split(";").find((directive) => directive.startsWith("script-src"))).toBe(
      "script-src 'self'",
    );
  });

  it("answers the health probes", async () => {
    expect((await t.app.inject({ url: "/healthz" })).json()).toEqual({ status: "ok" });
    expect((await t.app.inject({ url: "/readyz" })).json()).toMatchObject({ status: "ready" });
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

describe("readiness with pages that cannot be rendered", () => {
  // What a React that disagrees with react-dom does: each render throws, or
  // React Router answers it with its 500 page.
  it.each([
    [
      "throws",
      async () => {
        throw new TypeError("dispatcher.getOwner is not a function");
      },
    ],
    ["answers 500", async () => ({ status: 500, html: "Unexpected Server Error" })],
  ])(
    "answers /readyz with 503 when the renderer %s, while the API answers",
    async (_, renderer) => {
      if (!sqlite) throw new Error("SQLite engine missing");
      const t = await startApp(sqlite, {}, { renderer });
      expect((await t.app.inject({ url: "/api/v1/teams/" })).statusCode).toBe(200);
      const response = await t.app.inject({ url: "/readyz" });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ message: PAGES_BROKEN_MESSAGE });
      expect(t.logs.join("")).toContain('"msg":"pages cannot be rendered"');
      await t.close();
    },
  );
});

describe("without a built site (npm run dev)", () => {
  it("serves the API and answers other paths with a plain 404", async () => {
    if (!sqlite) throw new Error("SQLite engine missing");
    const t = await startApp(sqlite, { STATIC_DIR: "/nonexistent/site" }, { withPages: false });
    expect((await t.app.inject({ url: "/api/v1/teams/" })).statusCode).toBe(200);
    const page = await t.app.inject({ url: "/weserve" });
    expect(page.statusCode).toBe(404);
    expect(page.json()).toEqual({ message: "Not found" });
    await t.close();
  });
});

describe("the icon browsers ask for by its old name", () => {
  let t: TestApp;
  beforeAll(async () => {
    if (!sqlite) throw new Error("SQLite engine missing");
    // The public files as the build copies them.
    t = await startApp(sqlite, { STATIC_DIR: "public" });
  });
  afterAll(() => t.close());

  it("serves /favicon.ico as a small icon, cached for a week", async () => {
    const response = await t.app.inject({ url: "/favicon.ico" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^image\/(?:x-icon|vnd\.microsoft\.icon)$/);
    expect(response.headers["cache-control"]).toBe(ICON_CACHE_CONTROL);
    expect(response.rawPayload.length).toBeLessThan(8 * 1024);
    // An icon directory (reserved 0, type 1) with a 16 and a 32 px image.
    const payload = response.rawPayload;
    expect([payload.readUInt16LE(0), payload.readUInt16LE(2)]).toEqual([0, 1]);
    const sizes = Array.from({ length: payload.readUInt16LE(4) }, (_, i) => payload[6 + 16 * i]);
    expect(sizes).toEqual([16, 32]);
  });
});
