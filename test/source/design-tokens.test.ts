/**
 * Colours live in src/shared/design-tokens.ts only: no file in src/ spells a
 * raw hex colour (the site's fixed accent, ACCENT_COLOR in constants.ts, is the one
 * exception, and design-tokens.ts takes it from there). And every custom
 * property the web styles use is defined somewhere.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ACCENT_COLOR } from "../../src/shared/constants.ts";
import { COLORS, designTokensCss } from "../../src/shared/design-tokens.ts";
import { findHexColours } from "./hex-colours.ts";

const ROOT = join(import.meta.dirname, "../..");
const SOURCE_FILE = /\.(?:ts|tsx|css)$/;

/** Where a hex colour may be written, by file: every line, or only lines that match. */
const ALLOWED: Record<string, RegExp> = {
  "src/shared/design-tokens.ts": /^/,
  "src/shared/constants.ts": /^export const ACCENT_COLOR = "#[0-9a-f]{6}";$/i,
};

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((entry) => SOURCE_FILE.test(entry))
    .map((entry) =>
      relative(ROOT, join(ROOT, folder, entry))
        .split("\\")
        .join("/"),
    )
    .sort();
}

const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

describe("findHexColours", () => {
  it("finds hex colours in CSS and in strings", () => {
    const sample = [
      ".a { color: #fff; border: 1px solid #2A3548; }",
      ".b { background: linear-gradient(#abcd, #e6e9ee80); }",
      'const accent = "#ff7300";',
      "const style = `color:#b34700`;",
    ].join("\n");
    expect(findHexColours(sample).map(({ line, text }) => `${line}:${text}`)).toEqual([
      "1:#fff",
      "1:#2A3548",
      "2:#abcd",
      "2:#e6e9ee80",
      "3:#ff7300",
      "4:#b34700",
    ]);
  });

  it("does not take anchors, entities or other # words for colours", () => {
    const sample = [
      '<a className="skip-link" href="#main">',
      "<Link to=\"#add\" /> <a href='#bad'>",
      'const link = "/weare#ethos"; const other = "/weserve#face";',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a sample of source text, not a template
      "const at = `${route}#${anchor}`;",
      'const text = "&#123; and &#x27;";',
      '"#ethos" "#decades" "#12345" "#abcdefg" "#cafe-menu"',
    ].join("\n");
    expect(findHexColours(sample)).toEqual([]);
  });
});

describe("design tokens", () => {
  it("emits every colour, the fixed accent and the motion duration as one :root rule", () => {
    const css = designTokensCss();
    expect(css).toMatch(/^:root\{[^{}]+\}$/);
    expect(css).toContain(`--accent:${ACCENT_COLOR};`);
    expect(css).toContain("--ink-soft:#4b515b;");
    expect(css).toContain("--on-night-soft:#b9c0cc;");
    expect(css).toContain("--motion-duration:1000ms");
    for (const value of Object.values(COLORS)) expect(css).toContain(`:${value}`);
    const names = [...css.matchAll(/--([\w-]+):/g)].map((match) => match[1]);
    expect(new Set(names).size).toBe(names.length);
  });

  it("leaves no raw hex colour in src/ outside design-tokens.ts", () => {
    const found = sourceFiles("src").flatMap((file) =>
      findHexColours(read(file))
        .filter(({ source }) => !ALLOWED[file]?.test(source))
        .map(({ line, text, source }) => `${file}:${line}: ${text} in ${source}`),
    );
    expect(found, "use a custom property (var(--…)) or COLORS from design-tokens.ts").toEqual([]);
  });

  it("defines every custom property that the web styles use", () => {
    const webFiles = sourceFiles("src/web").map(read);
    const defining = /(?<![\w-])--([\w-]+)["']?\s*:/g;
    const defined = new Set(
      [designTokensCss(), ...webFiles].flatMap((text) =>
        [...text.matchAll(defining)].map((match) => match[1]),
      ),
    );
    const used = new Set(
      webFiles.flatMap((text) => [...text.matchAll(/var\(--([\w-]+)/g)].map((match) => match[1])),
    );
    expect([...used].filter((name) => !defined.has(name)).sort()).toEqual([]);
  });
});
