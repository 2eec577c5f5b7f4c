/**
 * The audit log keeps an entry AUDIT_RETENTION_DAYS, then
 * removes it, at start and daily (src/server/platform/audit/plugin.ts).
 */
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import audit from "../../src/server/platform/audit/plugin.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { ENGINES } from "../support/engines.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(ENGINES)("audit retention on $engine", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(engine);
  });
  afterAll(() => t.close());

  async function entryAged(days: number, action: string) {
    await t.database.db
      .insertInto("audit_log")
      .values({
        at: new Date(Date.now() - days * DAY_MS).toISOString(),
        user_id: null,
        actor: "retention@firm.example",
        action,
      })
      .execute();
  }

  const actions = async () =>
    (
      await t.database.db
        .selectFrom("audit_log")
        .select("action")
        .where("actor", "=", "retention@firm.example")
        .execute()
    ).map((row) => row.action);

  it("removes entries older than the retention when the server starts, and keeps the rest", async () => {
    await entryAged(31, "too-old");
    await entryAged(29, "young-enough");
    const app = Fastify({ logger: false });
    await app.register(audit, { database: t.database, retentionDays: 30 });
    await app.ready();
    await app.close();
    expect(await actions()).toEqual(["young-enough"]);
  });
});
