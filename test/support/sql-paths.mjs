/**
 * Which SQL paths each test file runs on which engine, recorded so that
 * test/platform/db/sql-paths-on-both.test.ts can show that every path the
 * suite runs on SQLite also runs on PostgreSQL, while only the files that
 * PostgreSQL needs run on it (test/support/engines.ts, ADR 078).
 *
 * A path is where in the server's code a query is run (its module and
 * function, from the stack) together with the query's shape:
 * Kysely's operation tree with every value left out. The same query with
 * other values is one path; a filter that adds a condition is another.
 *
 * Plain JavaScript, so that the server processes the tests start load it
 * before their own code (record-sql-paths-child.mjs) without a TypeScript
 * loader; the test workers load it through test/support/record-sql-paths.ts.
 * Each new path is appended at once to the process's own file in the run's
 * folder, so a process that is killed has written what it ran.
 */
import { createHash } from "node:crypto";
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/** The run's folder of records, made by test/support/template-databases.ts. */
export const SQL_PATHS_DIR_ENV = "TEST_SQL_PATHS_DIR";
/** The test file now running in a worker, which the servers it starts inherit. */
export const SQL_PATHS_FILE_ENV = "TEST_SQL_PATHS_FILE";
/** A record of a test file that started, so the check knows the run was whole. */
export const FILE_STARTED = "started";

const SERVER_CODE = "src/server/";

/**
 * Where in the server's code a query runs, from the stack's frames (each a
 * file, a function name or null, a line): the module of the first frame in
 * `src/server` that is no test, and the first function name among such
 * frames (a query is often run in an arrow function passed to a
 * transaction), as `module#function`, or `module:line` when none has a
 * name. Modules are named without their extension, so that the sources and
 * the build name them alike. Undefined for a query a test builds itself.
 */
export function callSite(frames) {
  let module = "";
  let row = 0;
  for (const { file, name, line } of frames) {
    const start = file.indexOf(SERVER_CODE);
    if (start === -1 || file.includes("/node_modules/") || file.includes(".test.")) continue;
    if (!module) {
      module = file.slice(start).replace(/\.[cm]?[jt]sx?$/, "");
      row = line ?? 0;
    }
    if (name) return `${module}#${name}`;
  }
  return module ? `${module}:${row}` : undefined;
}

/**
 * The query's operation tree without its values (nor the query's own id),
 * hashed. An insert of many rows has the shape of its first: the rows'
 * number is a value too.
 */
export function shapeOf(node) {
  const text = JSON.stringify(node, (key, value) => {
    if (key === "queryId") return undefined;
    if (value && typeof value === "object" && "kind" in value) {
      if (value.kind === "ValueNode") return "?";
      if (value.kind === "ValueListNode" || value.kind === "PrimitiveValueListNode") return "?…";
      if (value.kind === "ValuesNode") return { ...value, values: value.values.slice(0, 1) };
    }
    return value;
  });
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** The frames of the stack where this is called, as callSite reads them. */
function framesHere() {
  const { prepareStackTrace, stackTraceLimit } = Error;
  Error.stackTraceLimit = 60;
  // The frames as V8 holds them: no text to format, and no source map to look up.
  Error.prepareStackTrace = (_error, sites) => sites;
  const holder = {};
  Error.captureStackTrace(holder, framesHere);
  const sites = holder.stack;
  Error.prepareStackTrace = prepareStackTrace;
  Error.stackTraceLimit = stackTraceLimit;
  return sites.map((site) => ({
    file: site.getFileName() ?? "",
    name: site.getFunctionName(),
    line: site.getLineNumber(),
  }));
}

/**
 * Both dialects' query compilers, from the very modules Kysely's own index
 * loads, so that wrapping them here wraps the server's: loading the whole
 * package instead would add a third of a second to every process a test
 * starts, the many that never query included.
 */
async function compilers() {
  const main = createRequire(import.meta.url).resolve("kysely");
  const esm = join(dirname(main), "..", "esm", "dialect");
  const load = (file) => import(pathToFileURL(join(esm, file)).href);
  const [{ SqliteQueryCompiler }, { PostgresQueryCompiler }] = await Promise.all([
    load("sqlite/sqlite-query-compiler.js"),
    load("postgres/postgres-query-compiler.js"),
  ]);
  return { SqliteQueryCompiler, PostgresQueryCompiler };
}

let recording = false;

/**
 * Wraps both dialects' query compilers, once per process, when the run's
 * folder is set: each path the process runs is appended to its file there,
 * under the test file named in the environment at that moment.
 */
export async function startRecording() {
  const dir = process.env[SQL_PATHS_DIR_ENV];
  if (!dir || recording) return;
  recording = true;
  const { SqliteQueryCompiler, PostgresQueryCompiler } = await compilers();
  const out = join(dir, `${process.pid}.tsv`);
  const seen = new Set();
  const wrap = (prototype, engine) => {
    const compile = prototype.compileQuery;
    // A statement's text names its shape: the tree is read once per text.
    const shapes = new Map();
    prototype.compileQuery = function compileQuery(node, queryId) {
      const compiled = compile.call(this, node, queryId);
      const site = callSite(framesHere());
      if (site) {
        let shape = shapes.get(compiled.sql);
        if (shape === undefined) {
          shape = shapeOf(node);
          shapes.set(compiled.sql, shape);
        }
        const record = `${engine}\t${process.env[SQL_PATHS_FILE_ENV] ?? ""}\t${site} ${shape}`;
        if (!seen.has(record)) {
          seen.add(record);
          try {
            appendFileSync(out, `${record}\n`);
          } catch {
            // A server run as another user (the system call filter's test) cannot write here: its paths go unrecorded (ADR 078 says what that can hide).
          }
        }
      }
      return compiled;
    };
  };
  wrap(SqliteQueryCompiler.prototype, "sqlite");
  wrap(PostgresQueryCompiler.prototype, "postgres");
}

/** Notes that `file` started, in this process's file of the run's folder. */
export function recordStarted(file) {
  const dir = process.env[SQL_PATHS_DIR_ENV];
  if (dir) appendFileSync(join(dir, `${process.pid}.tsv`), `${FILE_STARTED}\t${file}\t\n`);
}

/** Every record in the run's folder, and the test files that started. */
export function readRecords(dir) {
  const started = new Set();
  const paths = [];
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
 * Modules of the server that only SQLite runs (the checkpoints of its
 * write-ahead log): their paths have nothing on PostgreSQL to run.
 */
export const SQLITE_OWN_MODULES = ["src/server/platform/db/wal-checkpoints"];

const ownToSqlite = (path) =>
  SQLITE_OWN_MODULES.some(
    (module) => path.startsWith(`${module}#`) || path.startsWith(`${module}:`),
  );

/**
 * The paths run on SQLite that no PostgreSQL run covers, each with the files
 * that ran it. A path run on SQLite alone is covered when a file that ran it
 * ran on PostgreSQL too: that file's PostgreSQL run took the engine's own
 * branch, which builds another query. A path of SQLITE_OWN_MODULES needs none.
 */
export function uncovered(paths) {
  const onPostgres = new Set();
  const filesOnPostgres = new Set();
  for (const { engine, file, path } of paths) {
    if (engine !== "postgres") continue;
    onPostgres.add(path);
    filesOnPostgres.add(file);
  }
  const missing = new Map();
  for (const { engine, file, path } of paths) {
    if (engine !== "sqlite" || onPostgres.has(path) || ownToSqlite(path)) continue;
    const files = missing.get(path) ?? new Set();
    missing.set(path, files.add(file));
  }
  for (const [path, files] of missing) {
    if ([...files].some((file) => filesOnPostgres.has(file))) missing.delete(path);
  }
  return missing;
}
