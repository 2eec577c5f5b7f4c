/**
 * The command-line tools as a person meets them: `--help` prints the usage
 * and ends well; a wrong argument says what was wrong, prints the usage and
 * ends badly, without a stack trace; an export never migrates, and refuses
 * a database whose schema is behind the code, leaving it as it was.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/server/platform/db/connection.ts";
import { migrateUpTo, schemaStatus } from "../../src/server/platform/db/migrations.ts";
import { childOutput } from "../support/child-output.ts";
import { SQLITE_ONLY, type TestDatabase } from "../support/engines.ts";
import { nodeArgs } from "../support/entry.ts";

function run(program: string, args: string[], env: Record<string, string> = {}) {
  return childOutput(
    spawn(process.execPath, [...nodeArgs(program), ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
}

/** A line of a stack trace, as Node prints one. */
const STACK_LINE = /^\s+at /m;

/** No database is opened for these: the environment points at a folder with none. */
const nowhere = () => ({ SQLITE_FILE: join(mkdtempSync(join(tmpdir(), "cli-")), "none.db") });

describe("the command-line tools' usage", () => {
  it.each([
    ["src/server/cli/admin.ts", ["create"], "npm run admin:create"],
    ["src/server/cli/export.ts", ["subscribers"], "npm run subscribers:export"],
    ["src/server/cli/content-import.ts", [], "npm run content:import"],
    ["src/server/cli/db-status.ts", [], "npm run db:status"],
    ["src/server/cli/backup.ts", [], "npm run backup"],
    ["src/server/cli/restore.ts", [], "npm run restore"],
  ])("%s --help prints its usage and ends with 0", async (program, before, usage) => {
    const { code, stdout, stderr } = await run(program, [...before, "--help"], nowhere());
    expect(stdout).toContain(`Usage: ${usage}`);
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });

  it.each([
    ["src/server/cli/admin.ts", ["create", "--bogus"], "Unknown option '--bogus'"],
    [
      "src/server/cli/admin.ts",
      ["create", "--email", "not-an-address"],
      "--email is not an e-mail address",
    ],
    ["src/server/cli/admin.ts", ["create"], "--email is missing"],
    ["src/server/cli/export.ts", ["everything"], 'Unexpected argument "everything"'],
    ["src/server/cli/content-import.ts", ["--form", "content/"], "Unknown option '--form'"],
    ["src/server/cli/db-status.ts", ["--all"], "Unknown option '--all'"],
    ["src/server/cli/backup.ts", ["--output", "x.tar.gz"], "Unknown option '--output'"],
    ["src/server/cli/restore.ts", ["--froce", "x.tar.gz"], "Unknown option '--froce'"],
  ])("%s %j says what was wrong, prints the usage and ends with 1", async (program, args, said) => {
    const { code, stderr } = await run(program, args, nowhere());
    expect(stderr).toContain(said);
    expect(stderr).toContain("Usage: ");
    expect(stderr).not.toMatch(STACK_LINE);
    expect(code).toBe(1);
  });

  it("stops at a near miss of a variable's name, naming the one meant", async () => {
    const { code, stderr } = await run("src/server/cli/export.ts", ["subscribers"], {
      ...nowhere(),
      SQLITE_FLIE: "data/site.db",
    });
    expect(stderr).toContain("Unknown environment variable SQLITE_FLIE: did you mean SQLITE_FILE?");
    expect(stderr).not.toMatch(STACK_LINE);
    expect(code).toBe(1);
  });

  it("refuses an SQLite file that is not there, and makes none", async () => {
    const env = nowhere();
    const { code, stderr } = await run("src/server/cli/export.ts", ["subscribers"], env);
    expect(stderr).toContain(`There is no database at ${env.SQLITE_FILE}`);
    expect(code).toBe(1);
  });
});

describe.each(SQLITE_ONLY)("an export on an unmigrated database on $engine", (engine) => {
  let testDb: TestDatabase;
  const LAST_RUN = "023_content_drafts";
  beforeAll(async () => {
    testDb = await engine.createEmpty();
    const { db, engine: kind } = openDatabase({
      databaseUrl: testDb.env.DATABASE_URL,
      sqliteFile: testDb.env.SQLITE_FILE ?? ":memory:",
    });
    await migrateUpTo(db, kind, LAST_RUN);
    await db.destroy();
  });
  afterAll(() => testDb?.drop());

  it("refuses, suggesting to start the server, and leaves the schema as it was", async () => {
    const { code, stdout, stderr } = await run(
      "src/server/cli/export.ts",
      ["inquiries"],
      testDb.env,
    );
    expect(stderr).toMatch(
      /^The database is not at the schema this code expects \(\d+ migrations? not run: 024_menu_lines, .*\); start the server once with this version/,
    );
    expect(stderr).not.toMatch(STACK_LINE);
    expect(stdout).toBe("");
    expect(code).toBe(1);

    const { db, engine: kind } = openDatabase({
      databaseUrl: testDb.env.DATABASE_URL,
      sqliteFile: testDb.env.SQLITE_FILE ?? ":memory:",
    });
    try {
      expect((await schemaStatus(db, kind)).pending[0]).toBe("024_menu_lines");
    } finally {
      await db.destroy();
    }
  });
});
