/**
 * app.consoleWrite, on both engines, in a server of the platform's own
 * plugins (the outbox, the audit log, the one error handler) with a route
 * per case: a write, the mail it queues and its audit entry commit together
 * and the sender is woken once they have; a refusal thrown in the work
 * answers with its status, message and fields and keeps none of them, as
 * does a failure, or an entry that cannot be written. A write that changed
 * nothing, or that keeps no entry and says why, records none. Mail is
 * queued only in the write's transaction: the checker refuses any other.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { type Kysely, sql, type Transaction } from "kysely";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from "vitest";
import audit from "../../../src/server/platform/audit/plugin.ts";
import consoleWrites, {
  type ConsoleWork,
  type WriteAction,
} from "../../../src/server/platform/console/write.ts";
import type { DatabaseHandle } from "../../../src/server/platform/db/connection.ts";
import { type Database, nowIso } from "../../../src/server/platform/db/schema.ts";
import dailyPurge from "../../../src/server/platform/ops/daily-purge.ts";
import metrics from "../../../src/server/platform/ops/metrics.ts";
import outbox from "../../../src/server/platform/outbox/plugin.ts";
import { enqueueMail, type OutboxTransaction } from "../../../src/server/platform/outbox/queue.ts";
import { refuse } from "../../../src/server/platform/refusal.ts";
import errors from "../../../src/server/platform/security/errors.ts";
import { loadConfig } from "../../../src/server/settings.ts";
import type { AuditAction } from "../../../src/shared/admin/audit-log.ts";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../support/engines.ts";

/** What each route does after writing its row and queuing its mail. */
const CASES = {
  kept: "records its entry",
  refused: "throws a refusal",
  failed: "throws a failure",
  unchanged: "marks that it changed nothing",
  unaudited: "keeps no entry, and says why",
  named: "names its action by its answer",
} as const;
type Case = keyof typeof CASES;

const REFUSAL = "That key was taken meanwhile. Choose another.";

/** The row each write stores: a site setting named by the request. */
function writeRow(trx: Kysely<Database>, key: string) {
  const now = nowIso();
  return trx
    .insertInto("site_meta")
    .values({ key, value: "written", created_at: now, updated_at: now })
    .execute();
}

/** The mail each write queues: one message to the request's own domain, to count it by. */
function queueMail(trx: OutboxTransaction, key: string) {
  return enqueueMail(trx, "mail-settings-test", {
    messageId: `<${key}@site.example>`,
    from: "site@firm.example",
    to: `someone@${key}.example`,
    subject: "A write's mail",
    text: "Sent once the write committed.",
    html: "<p>Sent once the write committed.</p>",
  });
}

/** Registers the route of each case, every one at POST /write/<case>/<key>. */
function routes(app: FastifyInstance) {
  const actions: Record<Case, WriteAction<{ key: string }>> = {
    kept: "mail-settings-saved",
    refused: "mail-settings-saved",
    failed: "mail-settings-saved",
    unchanged: "mail-settings-saved",
    unaudited: { unaudited: "a case of this test that keeps no entry" },
    named: ({ key }) => (key.startsWith("key") ? "content-restored" : "content-saved"),
  };
  for (const how of Object.keys(CASES) as Case[]) {
    app.post<{ Params: { key: string } }>(`/write/${how}/:key`, (request) =>
      app.consoleWrite(request, actions[how], async (trx, entry) => {
        const { key } = request.params;
        await writeRow(trx, key);
        await queueMail(trx, key);
        entry.subject = `setting:${key}`;
        entry.detail = { key };
        if (how === "refused") throw refuse.conflict(REFUSAL, { key: REFUSAL });
        if (how === "failed") throw new Error("the disk filled up mid-write");
        if (how === "unchanged") entry.unchanged = true;
        return { key };
      }),
    );
  }
}

describe.each(ENGINES)("app.consoleWrite on $engine", (engine) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let sequence = 0;

  beforeAll(async () => {
    testDb = await engine.create();
    database = openTestDatabase(testDb);
    const config = loadConfig({
      ...testDb.env,
      STATIC_DIR: mkdtempSync(join(tmpdir(), "site-static-")),
      MAILBOX_DIR: mkdtempSync(join(tmpdir(), "mailbox-")),
      // Only a wake sends the mail before the test ends: the next poll is a minute away.
      OUTBOX_POLL_MS: "60000",
    });
    app = Fastify();
    await app.register(dailyPurge, { database });
    await app.register(errors);
    await app.register(metrics, { config, database });
    await app.register(outbox, {
      config,
      database,
      secret: "a test secret of at least thirty-two characters",
      composeNewsletter: () => Promise.reject(new Error("no newsletter is sent in this test")),
    });
    await app.register(audit, { database, retentionDays: 30 });
    await app.register(consoleWrites);
    routes(app);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.db.destroy();
    await testDb.drop();
  });

  /** A key no other request of the test uses; it names the mail's domain too. */
  const newKey = () => {
    sequence += 1;
    return `key${sequence}`;
  };
  const write = (how: Case, key: string) =>
    app.inject({ method: "POST", url: `/write/${how}/${key}` });

  /** What a write left behind: its row, its mail (and whether it went), its entries. */
  async function traces(key: string) {
    const { db } = database;
    const row = await db.selectFrom("site_meta").select("key").where("key", "=", key).execute();
    const mail = await db
      .selectFrom("outbox")
      .select("status")
      .where("domain", "=", `${key}.example`)
      .execute();
    const entries = await db
      .selectFrom("audit_log")
      .select(["action", "actor", "target", "detail"])
      .where("target", "=", `setting:${key}`)
      .execute();
    return { rows: row.length, mail: mail.map(({ status }) => status), entries };
  }

  it("commits the row, its mail and its entry together, and wakes the sender after", async () => {
    const key = newKey();
    const response = await write("kept", key);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ key });
    const kept = await traces(key);
    expect(kept.rows).toBe(1);
    expect(kept.entries).toEqual([
      {
        action: "mail-settings-saved",
        actor: "anonymous",
        target: `setting:${key}`,
        detail: JSON.stringify({ key }),
      },
    ]);
    // Woken by the commit, the sender sends it long before its next poll.
    await vi.waitFor(async () => expect((await traces(key)).mail).toEqual(["sent"]), {
      timeout: 10_000,
    });
  });

  it("answers a refusal with its status, message and fields, and keeps nothing", async () => {
    const key = newKey();
    const response = await write("refused", key);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: REFUSAL, fields: { key: REFUSAL } });
    expect(await traces(key)).toEqual({ rows: 0, mail: [], entries: [] });
  });

  it("keeps nothing of a write that fails, and says nothing of why", async () => {
    const key = newKey();
    const response = await write("failed", key);
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain("disk");
    expect(await traces(key)).toEqual({ rows: 0, mail: [], entries: [] });
  });

  it("keeps neither the row nor its mail when the entry cannot be written", async () => {
    const key = newKey();
    const { db } = database;
    await sql`alter table audit_log rename to audit_log_away`.execute(db);
    try {
      expect((await write("kept", key)).statusCode).toBe(500);
    } finally {
      await sql`alter table audit_log_away rename to audit_log`.execute(db);
    }
    expect(await traces(key)).toEqual({ rows: 0, mail: [], entries: [] });
  });

  it("records nothing of a write that changed nothing, or keeps no entry, and keeps the write", async () => {
    for (const how of ["unchanged", "unaudited"] as const) {
      const key = newKey();
      expect((await write(how, key)).statusCode).toBe(200);
      const left = await traces(key);
      expect({ how, rows: left.rows, mail: left.mail.length, entries: left.entries }).toEqual({
        how,
        rows: 1,
        mail: 1,
        entries: [],
      });
    }
  });

  it("records the action the work's answer names", async () => {
    const key = newKey();
    expect((await write("named", key)).statusCode).toBe(200);
    expect((await traces(key)).entries.map(({ action }) => action)).toEqual(["content-restored"]);
  });

  it("hands the work the outbox's transaction, the only one mail is queued in", () => {
    expectTypeOf<Parameters<ConsoleWork<unknown>>[0]>().toEqualTypeOf<OutboxTransaction>();
    expectTypeOf<Parameters<typeof enqueueMail>[0]>().toEqualTypeOf<OutboxTransaction>();
    // Neither a plain transaction nor the database handle is one.
    expectTypeOf<Transaction<Database>>().not.toExtend<OutboxTransaction>();
    expectTypeOf<Kysely<Database>>().not.toExtend<OutboxTransaction>();
    // The action is part of every call: a write names its entry, or says why it keeps none.
    expectTypeOf<WriteAction<unknown>>().toExtend<
      AuditAction | ((answer: unknown) => AuditAction) | { unaudited: string }
    >();
    expectTypeOf<undefined>().not.toExtend<WriteAction<unknown>>();
  });
});
