/**
 * The console adds no byte to the public pages. Checked on
 * the build output (npm test builds first): no file of the site's build
 * carries the console's code, texts or paths, and no public page links to
 * the console's build; the console's own build does carry them, so the check
 * cannot pass by finding nothing anywhere.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ADMIN_API, AUTH_TEXTS } from "../../src/shared/admin/auth.ts";

const SITE = "build/client";
const CONSOLE = "build/admin";
const built = existsSync(SITE) && existsSync(CONSOLE);
if (!built) console.warn(`Console isolation checks skipped: ${SITE} or ${CONSOLE} is missing`);

/** Marks that only the console's code holds. */
const CONSOLE_MARKS = [
  ADMIN_API,
  AUTH_TEXTS.wrongCredentials,
  "Sign in to the console",
  "/admin/assets/",
];

function textFiles(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.(js|css|html|json|webmanifest|txt|xml)$/.test(file))
    .map((file) => ({ file, text: readFileSync(join(dir, file), "utf8") }));
}

const marksIn = (text: string) => CONSOLE_MARKS.filter((mark) => text.includes(mark));

describe.skipIf(!built)("the console's build", () => {
  it("holds the console's marks (so their absence elsewhere means something)", () => {
    const all = textFiles(CONSOLE)
      .map(({ text }) => text)
      .join("\n");
    expect(marksIn(all).sort()).toEqual([...CONSOLE_MARKS].sort());
  });

  it("is not in the site's build: no site file carries a console mark", () => {
    const files = textFiles(SITE);
    expect(files.length).toBeGreaterThan(5);
    const carrying = files
      .map(({ file, text }) => ({ file, marks: marksIn(text) }))
      .filter(({ marks }) => marks.length > 0);
    expect(carrying).toEqual([]);
  });

  it("is not in the server build that renders the public pages", () => {
    const server = textFiles("build/server")
      .map(({ text }) => text)
      .join("\n");
    expect(server.length).toBeGreaterThan(0);
    expect(marksIn(server)).toEqual([]);
  });
});
