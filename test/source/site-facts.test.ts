/**
 * The public pages show the site facts the firm edits (the mission, the
 * invitations, the contact address, the network link) from the database,
 * through the root loader: no file of the site reads them from the build's
 * content/site.json (shared/site.ts), which is only their seed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SITE_FACT_KEYS } from "../../src/shared/site-facts.ts";

const WEB = join(import.meta.dirname, "../../src/web");
const BUILT_FACT = new RegExp(`\\bSITE\\.(?:${SITE_FACT_KEYS.join("|")})\\b`);

describe("the site facts in the public pages", () => {
  it("are never read from the build's constants", () => {
    const files = readdirSync(WEB, { recursive: true, encoding: "utf8" }).filter(
      (file) => /\.tsx?$/.test(file) && !file.endsWith(".test.ts"),
    );
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.filter((file) =>
      BUILT_FACT.test(readFileSync(join(WEB, file), "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});
