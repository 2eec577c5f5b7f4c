/**
 * While instances switch to a new build, each serves the hashed assets of
 * the other builds kept beside its own in `.builds/`, the older ones and a
 * newer one made after it started, for the site and for the console: a page
 * from an instance on one build names assets the proxy may ask of an
 * instance on the other. Anything else is still the site's 404.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ASSET_CACHE_CONTROL } from "../../../src/server/platform/static/site.ts";
import { HOME_MARKER, startApp, type TestApp } from "../../support/app.ts";
import { ENGINES, type EngineCase } from "../../support/engines.ts";

/** The files are the same whatever the engine. */
const SQLITE = ENGINES[0] as EngineCase;
const BIG_SCRIPT = "console.log('an asset of the newer build');".repeat(100);

/** A finished build as scripts/build.ts leaves it, with one asset for the site and one for the console. */
function writeBuild(builds: string, name: string): string {
  const build = join(builds, name);
  for (const part of ["client", "admin"])
    mkdirSync(join(build, part, "assets"), { recursive: true });
  writeFileSync(join(build, "client", "assets", `app-${name}.js`), `console.log('${name}');`);
  writeFileSync(join(build, "admin", "assets", `console-${name}.js`), `console.log('${name}');`);
  writeFileSync(join(build, "admin", "index.html"), `<!doctype html><title>${name}</title>`);
  writeFileSync(join(build, "build-info.json"), "{}\n");
  return build;
}

describe("assets of the other kept builds", () => {
  let t: TestApp;
  const builds = join(mkdtempSync(join(tmpdir(), "kept-builds-")), ".builds");
  beforeAll(async () => {
    writeBuild(builds, "2026-11-27T10-00-00-000Z");
    const own = writeBuild(builds, "2026-11-28T10-00-00-000Z");
    t = await startApp(SQLITE, {
      STATIC_DIR: join(own, "client"),
      ADMIN_DIR: join(own, "admin"),
    });
    // Built after the instance started: the switch to it is under way.
    const newer = writeBuild(builds, "2026-11-28T11-00-00-000Z");
    writeFileSync(join(newer, "client", "assets", "big-new.js"), BIG_SCRIPT);
    writeFileSync(join(newer, "client", "assets", "big-new.js.br"), brotliCompressSync(BIG_SCRIPT));
  });
  afterAll(() => t.close());

  it.each([
    ["its own", "/assets/app-2026-11-28T10-00-00-000Z.js"],
    ["an older build's", "/assets/app-2026-11-27T10-00-00-000Z.js"],
    ["a newer build's", "/assets/app-2026-11-28T11-00-00-000Z.js"],
    ["its own console", "/admin/assets/console-2026-11-28T10-00-00-000Z.js"],
    ["an older build's console", "/admin/assets/console-2026-11-27T10-00-00-000Z.js"],
    ["a newer build's console", "/admin/assets/console-2026-11-28T11-00-00-000Z.js"],
  ])("serves %s asset, cached for good", async (_which, url) => {
    const response = await t.app.inject({ url });
    expect(response.statusCode).toBe(200);
    const build = /(\d{4}-[\dT-]+Z)/.exec(url)?.[1];
    expect(response.body).toBe(`console.log('${build}');`);
    expect(response.headers["cache-control"]).toBe(ASSET_CACHE_CONTROL);
  });

  it("sends another build's asset precompressed, as it does its own", async () => {
    const response = await t.app.inject({
      url: "/assets/big-new.js",
      headers: { "accept-encoding": "br" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.headers.vary).toContain("Accept-Encoding");
  });

  it.each([
    "/assets/no-such-asset.js",
    "/assets/..%2F2026-11-27T10-00-00-000Z%2Fclient%2Fassets%2Fapp-2026-11-27T10-00-00-000Z.js",
    "/assets/..%2F..%2Fbuild-info.json",
    "/assets/.hidden",
  ])("answers %s with the site's 404", async (url) => {
    const response = await t.app.inject({ url });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain(HOME_MARKER);
  });

  it("answers a console asset no build has with 404, not the console's page", async () => {
    const response = await t.app.inject({ url: "/admin/assets/no-such-asset.js" });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain("<title>");
  });
});
