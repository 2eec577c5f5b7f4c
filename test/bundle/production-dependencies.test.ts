/**
 * Production installs only the dependencies (npm ci --omit=dev): every
 * package the built server, its page renderer and its commands import must
 * be one of them, or the site fails at start (or a command fails when run)
 * on the machine that serves it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const BUILT = ["build/node", "build/server"];
const built = BUILT.every((dir) => existsSync(dir));
if (!built) console.warn("Production dependency check skipped: no build (npm run build makes it)");

const manifest = JSON.parse(readFileSync("package.json", "utf8")) as {
  dependencies: Record<string, string>;
};

/** `import … from "x"`, `export … from "x"`, `import("x")` and `import "x"` in built JavaScript. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;

/** What a package's name looks like (npm's rules), so words after "from" in text are not taken for one. */
const PACKAGE_NAME = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(\/[\w.@/-]*)?$/;

function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

function importedPackages(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (!entry.endsWith(".js")) continue;
    const file = join(dir, entry);
    for (const [, specifier = ""] of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      if (!PACKAGE_NAME.test(specifier) || builtinModules.includes(specifier)) continue;
      found.set(packageOf(specifier), file);
    }
  }
  return found;
}

describe.skipIf(!built)("the built server on production dependencies only", () => {
  it("imports only packages listed in dependencies", () => {
    const imported = new Map(BUILT.flatMap((dir) => [...importedPackages(dir)]));
    expect(imported.size).toBeGreaterThan(10);
    const missing = [...imported]
      .filter(([name]) => !(name in manifest.dependencies))
      .map(([name, file]) => `${name} (imported by ${file})`);
    expect(missing).toEqual([]);
  });
});
