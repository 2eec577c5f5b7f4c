/**
 * A reset request is answered before the address is looked up, so the
 * answer takes as long whether or not the address has an account. Shown
 * without timing anything: the database is held (PostgreSQL's users table
 * locked, SQLite's one connection taken) while the request is sent; the
 * answer arrives all the same, and the lookup, the link's mail and the
 * audit entry follow once the database is let go.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../src/server/platform/db/connection.ts";
import type { Database } from "../../../src/server/platform/db/schema.ts";
import { AUTH_PATHS, AUTH_TEXTS } from "../../../src/shared/admin/auth.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { anonymous, createAccount } from "../../support/console.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";

/** Holds the database until released; `trx` reads from inside the hold. */
async function holdDatabase(database: DatabaseHandle) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = (_trx: Transaction<Database>) => {};
  const holding = new Promise<Transaction<Database>>((resolve) => {
    held = resolve;
  });
  const done = database.db.transaction().execute(async (trx) => {
    if (database.engine === "postgres") {
      await sql`lock table users in access exclusive mode`.execute(trx);
    }
    held(trx);
    await released;
  });
  return {
    trx: await holding,
    async release() {
      release();
      await done;
    },
  };
}

describe.each(SQLITE_ONLY)("password reset requests on $engine", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(engine);
    await createAccount(t.database, "viewer", "known@firm.example");
  });
  afterAll(() => t.close());

  function auditOf(db: Kysely<Database>, email: string) {
    return db
      .selectFrom("audit_log")
      .select("detail")
      .where("action", "=", "password-reset-requested")
      .where("actor", "=", email)
      .execute();
  }

  async function mailsTo(email: string) {
    const rows = await t.database.db.selectFrom("outbox").select(["kind", "message"]).execute();
    return rows.filter((row) => JSON.parse(row.message).to === email).map((row) => row.kind);
  }

  it.each([
    { email: "known@firm.example", known: true, ip: "10.9.0.1" },
    { email: "unknown@firm.example", known: false, ip: "10.9.0.2" },
  ])(
    "answers for $email while the database is held, and does the work after",
    async ({ email, known, ip }) => {
      const client = await anonymous(t.app);
      const hold = await holdDatabase(t.database);
      try {
        let answered = false;
        const answer = t.app
          .inject({
            method: "POST",
            url: AUTH_PATHS.passwordReset,
            remoteAddress: ip,
            headers: { cookie: client.cookie, "x-xsrf-token": client.token },
            payload: { email },
          })
          .finally(() => {
            answered = true;
          });
        await expect.poll(() => answered, { timeout: 5000 }).toBe(true);
        const response = await answer;
        expect(response.statusCode).toBe(202);
        expect(response.json()).toEqual({ message: AUTH_TEXTS.resetSent });
        // Nothing of the request's work is written yet.
        expect(await auditOf(hold.trx, email)).toEqual([]);
      } finally {
        await hold.release();
      }
      await expect
        .poll(() => auditOf(t.database.db, email))
        .toEqual([{ detail: JSON.stringify({ known }) }]);
      expect(await mailsTo(email)).toEqual(known ? ["account-reset"] : []);
    },
  );
});
