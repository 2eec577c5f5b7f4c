/**
 * What test/support/record-sql-paths.ts records of each test file's SQL, and
 * the check made of it (test/platform/db/sql-paths-on-both.test.ts): every SQL path the
 * suite runs on SQLite also runs on PostgreSQL, while only the test files
 * that need the second engine run on it.
 *
 * A path is where in the server's code a query is built (the first frame in
 * `src/server`) together with the query's shape: Kysely's operation tree with
 * every value left out, so a filter that adds a condition is a path of its
 * own while the same query with other values is not.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The run's folder of records, made by test/support/template-databases.ts. */
export const SQL_PATHS_DIR_ENV = "TEST_SQL_PATHS_DIR";

/** A record: `engine`, the test file, and the path; a line of tab-separated fields. */
export interface SqlPathRecord {
  engine: "sqlite" | "postgres";
  file: string;
  path: string;
}

/** Written for every test file that starts, so the check knows the run was whole. */
export const FILE_STARTED = "started";

/** Every record in the run's folder, and the test files that started. */
export function readRecords(dir: string): { started: Set<string>; paths: SqlPathRecord[] } {
  const started = new Set<string>();
  const paths: SqlPathRecord[] = [];
  for (const name of readdirSync(dir)) {
    for (const line of readFileSync(join(dir, name), "utf8").split("\n")) {
      const [kind = "", file = "", path = ""] = line.split("\t");
      if (kind === FILE_STARTED) started.add(file);
      else if (kind === "sqlite" || kind === "postgres") paths.push({ engine: kind, file, path });
    }
  }
  return { started, paths };
}

/**
 * The paths run on SQLite that no PostgreSQL run covers, each with the files
 * that ran it. A path run on SQLite alone is covered when the file that ran it
 * ran on PostgreSQL too: that file's PostgreSQL run took the engine's own branch.
 */
export function uncovered(paths: SqlPathRecord[]): Map<string, Set<string>> {
  const onPostgres = new Set<string>();
  const filesOnPostgres = new Set<string>();
  for (const { engine, file, path } of paths) {
    if (engine !== "postgres") continue;
    onPostgres.add(path);
    filesOnPostgres.add(file);
  }
  const missing = new Map<string, Set<string>>();
  for (const { engine, file, path } of paths) {
    if (engine !== "sqlite" || onPostgres.has(path) || filesOnPostgres.has(file)) continue;
    missing.set(path, (missing.get(path) ?? new Set()).add(file));
  }
  return missing;
}
