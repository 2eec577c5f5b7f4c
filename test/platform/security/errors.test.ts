import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INTERNAL_ERROR_MESSAGE } from "../../../src/server/platform/security/errors.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";

describe.each(SQLITE_ONLY)("failures on $engine", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(engine);
  });
  afterAll(() => t.close());

  it.each(["/api/v1/nothing", "/api/v2/teams", "/api/"])(
    "answers JSON 404 for unknown API path %s",
    async (url) => {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(404);
      expect(response.headers["content-type"]).toMatch(/application\/json/);
      expect(response.json()).toEqual({ message: expect.stringContaining("No API route") });
    },
  );

  it("answers an unexpected failure with 500 {message, requestId}, detail only in the log", async () => {
    await sql`drop table team_members`.execute(t.database.db);
    const response = await t.app.inject({ method: "GET", url: "/api/v1/teams/" });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(["message", "requestId"]);
    expect(body.message).toBe(INTERNAL_ERROR_MESSAGE);
    expect(response.body).not.toMatch(/team_members|select|sql|at .*\.ts/i);

    const line = t.logs.map((l) => JSON.parse(l)).find((l) => l.reqId === body.requestId && l.err);
    expect(line?.err.message).toMatch(/team_members/);
  });
});
