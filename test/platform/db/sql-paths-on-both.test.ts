/**
 * Every SQL path the suite runs on SQLite also runs on PostgreSQL, while only
 * the test files PostgreSQL needs run on it (test/support/engines.ts, ADR
 * 078). This file runs after every other (vitest.config.ts) and reads what
 * they recorded (test/support/sql-paths.mjs says what a path is, and when a
 * path run on SQLite alone is covered). A run of part of the suite proves
 * nothing, and says so.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { POSTGRES_URL } from "../../support/engines.ts";
import {
  callSite,
  readRecords,
  SQL_PATHS_DIR_ENV,
  type SqlPathRecord,
  shapeOf,
  uncovered,
} from "../../support/sql-paths.mjs";

const THIS_FILE = "test/platform/db/sql-paths-on-both.test.ts";

/** The suite's test files, as vitest.config.ts includes them, from the package root. */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFiles(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

test("names a path by the server's module and function, the same in the sources and the build", () => {
  const frame = (file: string, name: string | null, line: number) => ({ file, name, line });
  const fromSources = [
    frame("/repo/test/support/sql-paths.mjs", "compileQuery", 80),
    frame("/repo/node_modules/kysely/dist/esm/index.js", "execute", 1),
    frame("/repo/src/server/features/subscriptions/queries.ts", "listSubscribers", 41),
  ];
  const fromBuild = [
    ...fromSources.slice(0, 2),
    frame(
      "file:///repo/build/node/src/server/features/subscriptions/queries.js",
      "listSubscribers",
      30,
    ),
  ];
  expect(callSite(fromSources)).toBe("src/server/features/subscriptions/queries#listSubscribers");
  expect(callSite(fromBuild)).toBe(callSite(fromSources));
  // A query run in an arrow function is named by the function that ran it.
  const inTransaction = [
    frame("/repo/src/server/features/content/seed.ts", null, 153),
    frame("/repo/node_modules/kysely/dist/esm/index.js", "execute", 1),
    frame("/repo/src/server/features/content/seed.ts", "seedContent", 140),
  ];
  expect(callSite(inTransaction)).toBe("src/server/features/content/seed#seedContent");
  expect(callSite([frame("/repo/src/server/main.ts", null, 12)])).toBe("src/server/main:12");
  // A query a test builds is none of the server's, even where the test lives beside the code.
  expect(callSite([frame("/repo/test/features/x.test.ts", "count", 5)])).toBeUndefined();
  expect(
    callSite([frame("/repo/src/server/features/audience/counting.test.ts", "rows", 9)]),
  ).toBeUndefined();
});

test("gives one shape to a query with other values, and to an insert of more rows", () => {
  const value = (v: unknown) => ({ kind: "ValueNode", value: v });
  const insert = (...rows: unknown[][]) => ({
    kind: "InsertQueryNode",
    into: { kind: "TableNode", table: "subscriptions" },
    values: {
      kind: "ValuesNode",
      values: rows.map((row) => ({ kind: "ValueListNode", values: row.map(value) })),
    },
  });
  expect(shapeOf(insert(["a@x.example"]))).toBe(shapeOf(insert(["b@x.example"], ["c@x.example"])));
  const other = { ...insert(["a@x.example"]), into: { kind: "TableNode", table: "inquiries" } };
  expect(shapeOf(other)).not.toBe(shapeOf(insert(["a@x.example"])));
});

test("a path run on SQLite alone is covered only by a file that ran on PostgreSQL too, or by being SQLite's own", () => {
  const paths: SqlPathRecord[] = [
    { engine: "sqlite", file: "a.test.ts", path: "x#f shape" },
    { engine: "postgres", file: "b.test.ts", path: "x#f shape" },
    { engine: "sqlite", file: "c.test.ts", path: "y#g sqlite-branch" },
    { engine: "postgres", file: "c.test.ts", path: "y#g postgres-branch" },
    { engine: "sqlite", file: "d.test.ts", path: "z#h shape" },
    {
      engine: "sqlite",
      file: "e.test.ts",
      path: "src/server/platform/db/wal-checkpoints#round shape",
    },
  ];
  expect(uncovered(paths)).toEqual(new Map([["z#h shape", new Set(["d.test.ts"])]]));
});

test("every SQL path the suite ran on SQLite ran on PostgreSQL too", (context) => {
  const dir = process.env[SQL_PATHS_DIR_ENV];
  if (!POSTGRES_URL || !dir) {
    console.warn("SQL path check skipped: TEST_DATABASE_URL is not set");
    context.skip();
    return;
  }
  const { started, paths } = readRecords(dir);
  const suite = [...testFiles("src"), ...testFiles("test")].filter((file) => file !== THIS_FILE);
  const notRun = suite.filter((file) => !started.has(file));
  if (notRun.length > 0) {
    console.warn(
      `SQL path check skipped: ${notRun.length} of the suite's ${suite.length} files did not run (it needs the whole suite), e.g. ${notRun[0]}`,
    );
    context.skip();
    return;
  }
  // A recorder that wrapped nothing would leave nothing to find missing.
  for (const engine of ["sqlite", "postgres"]) {
    const recorded = new Set(
      paths.filter((record) => record.engine === engine).map(({ path }) => path),
    );
    expect(recorded.size, `SQL paths recorded on ${engine}`).toBeGreaterThan(100);
  }
  const missing = [...uncovered(paths)].map(
    ([path, files]) =>
      `${path}, run on SQLite alone by ${[...files].join(", ")}: run one of them on ENGINES`,
  );
  expect(missing, "SQL paths no PostgreSQL run covers").toEqual([]);
});
