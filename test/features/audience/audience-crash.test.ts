/**
 * What a crash costs the audience figures (ADR 051): counts wait in the
 * process's memory until a flush adds them to the database, so a process
 * killed with `kill -9` loses what it counted since its last flush, and
 * nothing flushed before. A graceful stop writes everything; a running
 * server writes every AUDIENCE_FLUSH_SECONDS by itself.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "../../../src/server/platform/db/connection.ts";
import { ENGINES, openMigrated, type TestDatabase } from "../../support/engines.ts";
import { type ServerProcess, startServer } from "../../support/server-process.ts";

const PROCESS_TEST_MS = 60_000;
const BROWSER =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** A client-side navigation's beacon, as a browser on the site sends it. */
async function navigate(server: ServerProcess, path: string) {
  const response = await fetch(`${server.origin}/api/v1/page-view`, {
    method: "POST",
    headers: { "user-agent": BROWSER, "content-type": "text/plain;charset=UTF-8" },
    body: path,
  });
  expect(response.status).toBe(204);
}

describe.each(ENGINES)("the audience counts across a crash on $engine", (engine) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;

  beforeAll(async () => {
    testDb = await engine.create();
    database = await openMigrated(testDb);
  });
  afterAll(async () => {
    await database.db.destroy();
    await testDb.drop();
  });

  const viewsOfWeare = async () => {
    const rows = await database.db
      .selectFrom("audience_days")
      .select("views")
      .where("dimension", "=", "page")
      .where("value", "=", "/weare")
      .execute();
    return rows.reduce((sum, row) => sum + Number(row.views), 0);
  };

  it(
    "keeps what was flushed and loses, on kill -9, only what was counted since",
    async () => {
      // Five minutes between flushes: within the test, only a stop writes.
      const rare = { ...testDb.env, AUDIENCE_FLUSH_SECONDS: "300" };
      const first = await startServer(rare);
      await navigate(first, "/weare");
      await navigate(first, "/weare");
      first.child.kill("SIGTERM");
      expect(await first.exited).toBe(0);
      expect(await viewsOfWeare()).toBe(2);

      const second = await startServer(rare);
      await navigate(second, "/weare");
      await navigate(second, "/weare");
      await navigate(second, "/weare");
      second.child.kill("SIGKILL");
      await second.exited;
      // The three views since the last flush died with the process; the two before stay.
      expect(await viewsOfWeare()).toBe(2);

      // A running server writes every AUDIENCE_FLUSH_SECONDS by itself, without a stop.
      const third = await startServer({ ...testDb.env, AUDIENCE_FLUSH_SECONDS: "1" });
      try {
        await navigate(third, "/weare");
        await vi.waitFor(async () => expect(await viewsOfWeare()).toBe(3), {
          timeout: 10_000,
          interval: 100,
        });
      } finally {
        third.child.kill("SIGKILL");
        await third.exited;
      }
    },
    PROCESS_TEST_MS,
  );
});
