/**
 * Vitest's setup file that records which SQL paths each test file runs, on
 * which engine (test/support/sql-paths.ts says what a path is). Both
 * dialects' query compilers are wrapped once per worker; each file's paths
 * are appended to the worker's own file in the run's folder when it ends.
 */
import { createHash } from "node:crypto";
import { appendFileSync } from "node:fs";
import { join, relative } from "node:path";
import { type OperationNode, PostgresQueryCompiler, SqliteQueryCompiler } from "kysely";
import { afterAll, beforeAll, expect } from "vitest";
import { FILE_STARTED, SQL_PATHS_DIR_ENV, type SqlPathRecord } from "./sql-paths.ts";

const ROOT = process.cwd();
const SERVER_CODE = `${join(ROOT, "src", "server")}/`;

/** The first frame of the stack in the server's own code, as `file:line`. */
function callSite(stack: string): string {
  for (const line of stack.split("\n")) {
    const start = line.indexOf(SERVER_CODE);
    if (start === -1 || line.includes("/node_modules/")) continue;
    const location = line.slice(start).replace(/\)$/, "");
    const [file = "", row = ""] = location.split(":");
    return `${relative(ROOT, file)}:${row}`;
  }
  return "outside src/server";
}

/** The query's tree without its values (nor the query's own id). */
function shapeOf(node: OperationNode): string {
  const text = JSON.stringify(node, (key, value: unknown) => {
    if (key === "queryId") return undefined;
    if (value && typeof value === "object" && "kind" in value) {
      const { kind } = value as { kind: string };
      if (kind === "ValueNode") return "?";
      if (kind === "ValueListNode" || kind === "PrimitiveValueListNode") return "?…";
    }
    return value;
  });
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

const seen = new Set<string>();
let currentFile = "";

function record(engine: SqlPathRecord["engine"], node: OperationNode): void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  const stack = new Error().stack ?? "";
  Error.stackTraceLimit = limit;
  seen.add(`${engine}\t${currentFile}\t${callSite(stack)} ${shapeOf(node)}`);
}

type Compile = SqliteQueryCompiler["compileQuery"];
const WRAPPED = Symbol.for("test.sqlPaths.wrapped");

function wrap(
  prototype: { compileQuery: Compile } & Record<symbol, unknown>,
  engine: SqlPathRecord["engine"],
) {
  if (prototype[WRAPPED]) return;
  const compile = prototype.compileQuery;
  prototype.compileQuery = function compileQuery(this: unknown, node, queryId) {
    record(engine, node);
    return compile.call(this, node, queryId);
  };
  prototype[WRAPPED] = true;
}

const dir = process.env[SQL_PATHS_DIR_ENV];
if (dir) {
  wrap(SqliteQueryCompiler.prototype as never, "sqlite");
  wrap(PostgresQueryCompiler.prototype as never, "postgres");
  const out = join(dir, `${process.pid}.tsv`);
  beforeAll(() => {
    currentFile = relative(ROOT, expect.getState().testPath ?? "");
    seen.clear();
    appendFileSync(out, `${FILE_STARTED}\t${currentFile}\t\n`);
  });
  afterAll(() => {
    if (seen.size > 0) appendFileSync(out, `${[...seen].join("\n")}\n`);
    seen.clear();
  });
}
