/**
 * A row and the mail it causes are committed in one transaction: when either
 * insert fails, neither is kept. Each case takes one table away for a single
 * request (renamed, on both engines), so that writing to it fails.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../../src/server/platform/db/schema.ts";
import { openSession, post, type Session, startApp, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";
import { VALID_INQUIRY } from "../../support/fixtures.ts";

describe.each(ENGINES)("a write and its mail on $engine", (engine) => {
  let t: TestApp;
  let session: Session;
  let sequence = 0;
  beforeAll(async () => {
    t = await startApp(engine);
    session = await openSession(t.app);
  });
  afterAll(() => t.close());

  const writes = {
    inquiries: () => post(t.app, session, "/api/v1/send-comment", VALID_INQUIRY),
    subscriptions: () => {
      sequence += 1;
      return post(t.app, session, `/api/v1/subscribe?emailId=tx${sequence}%40example.com`);
    },
  } as const;
  const tables = Object.keys(writes) as (keyof typeof writes)[];

  async function rows(table: keyof Database): Promise<number> {
    const { n } = await t.database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  async function withoutTable<T>(table: keyof Database, act: () => Promise<T>): Promise<T> {
    const { db } = t.database;
    await sql`alter table ${sql.table(table)} rename to ${sql.table(`${table}_away`)}`.execute(db);
    try {
      return await act();
    } finally {
      await sql`alter table ${sql.table(`${table}_away`)} rename to ${sql.table(table)}`.execute(
        db,
      );
    }
  }

  it.each(tables)("keeps no %s row when its mail cannot be queued", async (table) => {
    const before = await rows(table);
    const response = await withoutTable("outbox", writes[table]);
    expect(response.statusCode).toBe(500);
    expect(await rows(table)).toBe(before);
  });

  it.each(tables)("queues no mail when the %s row cannot be written", async (table) => {
    const before = await rows("outbox");
    const response = await withoutTable(table, writes[table]);
    expect(response.statusCode).toBe(500);
    expect(await rows("outbox")).toBe(before);
  });

  it.each(tables)("keeps the %s row and its mail when both inserts succeed", async (table) => {
    const [rowsBefore, mailBefore] = [await rows(table), await rows("outbox")];
    expect((await writes[table]()).statusCode).toBeLessThan(300);
    expect(await rows(table)).toBe(rowsBefore + 1);
    expect(await rows("outbox")).toBe(mailBefore + 1);
  });
});
