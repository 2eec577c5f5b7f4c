/**
 * Vitest's global setup: migrates one database per engine before any test
 * file runs, for test/support/engines.ts to copy each test database from,
 * and makes the run's folder where each file's SQL paths are recorded
 * (test/support/sql-paths.mjs, unless TEST_SQL_PATHS_DIR names one); both
 * go when the run ends. Should Vitest call a global setup again (once per
 * project of the run, in one process), the later calls find them made.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ENGINES, TEMPLATE_ENV, type TestDatabase } from "./engines.ts";
import { SQL_PATHS_DIR_ENV } from "./sql-paths.mjs";

export default async function makeTemplates(): Promise<() => Promise<void>> {
  if (process.env[TEMPLATE_ENV.sqlite]) return async () => {};
  // A run given a folder keeps its records there, to be read after it.
  const given = process.env[SQL_PATHS_DIR_ENV];
  const sqlPaths = given ?? mkdtempSync(join(tmpdir(), "sql-paths-"));
  process.env[SQL_PATHS_DIR_ENV] = sqlPaths;
  const templates: TestDatabase[] = [];
  for (const engine of ENGINES) {
    // No template is set yet, so create() migrates this one itself.
    const template = await engine.create();
    templates.push(template);
    // Test files run in workers this process starts after the setup, with its environment.
    process.env[TEMPLATE_ENV[engine.engine]] =
      engine.engine === "sqlite"
        ? template.env.SQLITE_FILE
        : new URL(template.env.DATABASE_URL ?? "").pathname.slice(1);
  }
  return async () => {
    for (const template of templates) await template.drop();
    if (!given) rmSync(sqlPaths, { recursive: true, force: true });
  };
}
