/**
 * Every SQL path the suite runs on SQLite also runs on PostgreSQL. Only the
 * test files that need the second engine run on it; this file runs after
 * every other (vitest.config.ts) and reads what
 * test/support/record-sql-paths.ts recorded (test/support/sql-paths.ts says
 * what a path is, and when one run on SQLite alone is covered). Running part
 * of the suite proves nothing, and says so.
 */
import { expect, test } from "vitest";
import { POSTGRES_URL } from "../../support/engines.ts";
import {
  readRecords,
  SQL_PATHS_DIR_ENV,
  type SqlPathRecord,
  uncovered,
} from "../../support/sql-paths.ts";
import { SUITE_FILES } from "../../support/suite-files.ts";

const dir = process.env[SQL_PATHS_DIR_ENV];

test("a path run on SQLite alone is one a file that ran on PostgreSQL did not take", () => {
  const paths: SqlPathRecord[] = [
    { engine: "sqlite", file: "a.test.ts", path: "x.ts:1 shape" },
    { engine: "postgres", file: "b.test.ts", path: "x.ts:1 shape" },
    { engine: "sqlite", file: "c.test.ts", path: "y.ts:2 sqlite-branch" },
    { engine: "postgres", file: "c.test.ts", path: "y.ts:3 postgres-branch" },
    { engine: "sqlite", file: "d.test.ts", path: "z.ts:4 shape" },
  ];
  expect(uncovered(paths)).toEqual(new Map([["z.ts:4 shape", new Set(["d.test.ts"])]]));
});

test("every SQL path the suite ran on SQLite ran on PostgreSQL too", (context) => {
  if (!POSTGRES_URL || !dir) {
    console.warn("SQL path check skipped: TEST_DATABASE_URL is not set");
    context.skip();
    return;
  }
  const { started, paths } = readRecords(dir);
  const notRun = SUITE_FILES.filter((file) => !started.has(file));
  if (notRun.length > 0) {
    console.warn(
      `SQL path check skipped: ${notRun.length} of the suite's ${SUITE_FILES.length} files did not run (it needs the whole suite), e.g. ${notRun[0]}`,
    );
    context.skip();
    return;
  }
  const missing = [...uncovered(paths)].map(
    ([path, files]) => `${path}, run on SQLite alone by ${[...files].join(", ")}`,
  );
  expect(missing, "SQL paths no PostgreSQL run covers").toEqual([]);
});
