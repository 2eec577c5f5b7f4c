/**
 * Vitest's global setup: migrates one database per engine before any test
 * file runs, for test/support/engines.ts to copy each test database from,
 * and drops them when the run ends.
 */
import { ENGINES, TEMPLATE_ENV, type TestDatabase } from "./engines.ts";

export default async function makeTemplates(): Promise<() => Promise<void>> {
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
  };
}
