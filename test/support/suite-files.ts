/**
 * The unit suite's test files, as vitest.config.ts includes them: every
 * `*.test.ts` under src/ and test/, as paths from the package root. The
 * SQL path check runs last and counts itself out.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";

export const SQL_PATHS_CHECK = "test/platform/db/sql-paths-on-both.test.ts";

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFiles(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

export const SUITE_FILES = [...testFiles("src"), ...testFiles("test")].filter(
  (file) => file !== SQL_PATHS_CHECK,
);
