import { defineConfig } from "vitest/config";

/**
 * The import rules' test writes probe files into src/ for the lint to read
 * (test/source/boundaries.test.ts), which for a moment makes the build look
 * older than its sources; it runs first, alone, so that the tests of the
 * launcher, which need the build to be current, never see it so.
 */
const LINT_PROBES = "test/source/boundaries.test.ts";

/**
 * Test files that replace a module (vi.mock) need a module graph of their
 * own; every other file shares its worker's, so the server's modules are
 * loaded once per worker rather than once per file (a quarter of the suite's
 * time when each file loaded them afresh).
 */
const MOCKING = ["test/platform/console/console-routes.test.ts"];

/** Reads what every other file's SQL was (test/support/sql-paths.mjs), so it runs after them all. */
const SQL_PATHS_CHECK = "test/platform/db/sql-paths-on-both.test.ts";

export default defineConfig({
  test: {
    setupFiles: ["test/support/announce-engines.ts", "test/support/record-sql-paths.ts"],
    globalSetup: ["test/support/template-databases.ts"],
    // Vitest's default, one file fewer than the cores, runs one file at a time
    // on two cores, while most files spend their time waiting on a server
    // process, a database or a socket. Three at once kept both cores busy.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A poll waits on a server, a send or a mailbox, which a busy machine
    // slows: its default second failed sends that were merely late. A poll
    // still ends at its first success; only a real failure waits this long.
    expect: { poll: { timeout: 15_000 } },
    projects: [
      {
        extends: true,
        test: { name: "lint-probes", include: [LINT_PROBES], sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: {
          name: "suite",
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          exclude: [LINT_PROBES, ...MOCKING, SQL_PATHS_CHECK, "**/node_modules/**"],
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: { name: "mocking", include: MOCKING, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: { name: "sql-paths", include: [SQL_PATHS_CHECK], sequence: { groupOrder: 2 } },
      },
    ],
  },
});
