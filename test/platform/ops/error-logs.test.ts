/**
 * A client's mistake (a request that fails validation, a path that does not
 * exist) is logged in one line at info, without a stack trace: such lines
 * come by the thousand from scanners and must not look like failures. A
 * failure of the site's own is logged at error with its stack.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession, post, startApp, type TestApp } from "../../support/app.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";

const INFO = 30;
const ERROR = 50;
/** Fastify's own two lines for every request, whatever its outcome. */
const ACCESS_LINES = new Set(["incoming request", "request completed"]);

describe.each(SQLITE_ONLY)("the log of a failed request on $engine", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(engine);
  });
  afterAll(() => t.close());

  /** The lines of one request, found by the id its answer names. */
  function linesOf(requestId: unknown) {
    return t.logs.map((line) => JSON.parse(line)).filter((line) => line.reqId === requestId);
  }

  function expectOneQuietLine(requestId: unknown, statusCode: number) {
    const lines = linesOf(requestId);
    const own = lines.filter((line) => !ACCESS_LINES.has(line.msg));
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ level: INFO, statusCode });
    expect(JSON.stringify(lines)).not.toContain("stack");
  }

  it("logs a request refused by validation (400) in one line, without a stack", async () => {
    const response = await post(t.app, await openSession(t.app), "/api/v1/send-comment", {});
    expect(response.statusCode).toBe(400);
    expectOneQuietLine(response.headers["x-request-id"], 400);
  });

  it("logs an unknown API path (404) in one line, without a stack", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/v1/no-such-thing" });
    expect(response.statusCode).toBe(404);
    expectOneQuietLine(response.headers["x-request-id"], 404);
  });

  it("logs a failure of the site's own (500) at error, with its stack", async () => {
    await sql`drop table team_members`.execute(t.database.db);
    const response = await t.app.inject({ method: "GET", url: "/api/v1/teams/" });
    expect(response.statusCode).toBe(500);
    const failure = linesOf(response.headers["x-request-id"]).find((line) => line.err);
    expect(failure).toMatchObject({
      level: ERROR,
      err: { stack: expect.stringContaining("team_members") },
    });
  });
});
