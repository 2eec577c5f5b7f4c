/**
 * Checks on the built site (npm test builds it first): the browser's code
 * must not carry the server's validation library.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ASSETS = "build/client/assets";
const built = existsSync(ASSETS);
if (!built) console.warn(`Bundle checks skipped: ${ASSETS} is missing (npm run build makes it)`);

/** Zod 4 names its classes with string literals that survive minification. */
const carriesZod = (code: string) => /["'`]\$Zod(Type|Error)["'`]/.test(code);

describe("the Zod detector", () => {
  it("recognises Zod's own code", () => {
    expect(carriesZod(readFileSync("node_modules/zod/v4/core/schemas.js", "utf8"))).toBe(true);
    expect(carriesZod(readFileSync("node_modules/zod/v4/core/errors.js", "utf8"))).toBe(true);
    expect(carriesZod("const schema = { type: 'ZodLike' };")).toBe(false);
  });
});

describe.skipIf(!built)("the browser bundle", () => {
  it("leaves Zod out: the pages import only the types inferred from the shared schemas", () => {
    const scripts = readdirSync(ASSETS).filter((file) => file.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(0);
    const withZod = scripts.filter((file) => carriesZod(readFileSync(join(ASSETS, file), "utf8")));
    expect(withZod).toEqual([]);
  });
});
