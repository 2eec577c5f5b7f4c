/**
 * The console's idle limit runs from the last request, to the millisecond:
 * someone working keeps their session however short the limit, and someone
 * who stops is signed out when the limit has passed, not before. The clock
 * is passed in, so a minute of activity takes no time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, findSession } from "../../../src/server/platform/console/sessions.ts";
import { ensureUser } from "../../../src/server/platform/console/users.ts";
import type { DatabaseHandle } from "../../../src/server/platform/db/connection.ts";
import { openMigrated, SQLITE_ONLY, type TestDatabase } from "../../support/engines.ts";

const MINUTE = 60_000;
const limits = { idleMs: MINUTE, maxMs: 12 * 60 * MINUTE };
const client = { ip: "192.0.2.1", userAgent: "test" };

describe.each(SQLITE_ONLY)("the console's idle limit on $engine", (engine) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  let userId: number;
  const start = new Date("2026-11-24T09:00:00.000Z").getTime();
  const at = (ms: number) => new Date(start + ms);

  beforeAll(async () => {
    testDb = await engine.create();
    database = await openMigrated(testDb);
    ({
      user: { id: userId },
    } = await ensureUser(database.db, {
      email: "idle@firm.example",
      role: "editor",
    }));
  });
  afterAll(async () => {
    await database.db.destroy();
    await testDb.drop();
  });

  it("keeps a session in use every 15 seconds open, with a one-minute limit", async () => {
    const token = await createSession(database.db, userId, client, limits, at(0));
    for (let second = 15; second <= 5 * 60; second += 15) {
      const session = await findSession(database.db, token, limits, at(second * 1000));
      expect(session, `a request at ${second} s`).toBeDefined();
    }
  });

  it("signs a session out exactly when the limit has passed since its last request", async () => {
    const token = await createSession(database.db, userId, client, limits, at(0));
    expect(await findSession(database.db, token, limits, at(40_000))).toBeDefined();
    expect(await findSession(database.db, token, limits, at(40_000 + MINUTE - 1))).toBeDefined();
    const last = 40_000 + MINUTE - 1;
    expect(await findSession(database.db, token, limits, at(last + MINUTE))).toBeUndefined();
  });

  it("ends a session at its maximum length however busy it is", async () => {
    const patient = { idleMs: 24 * 60 * MINUTE, maxMs: 60 * MINUTE };
    const token = await createSession(database.db, userId, client, patient, at(0));
    expect(await findSession(database.db, token, patient, at(patient.maxMs - 1))).toBeDefined();
    expect(await findSession(database.db, token, patient, at(patient.maxMs))).toBeUndefined();
  });
});
