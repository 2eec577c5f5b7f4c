/**
 * The sign-in counts on their own, with the clock passed in: locks that last
 * an hour are over in no time, and every step is seen at its exact moment.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openMigrated, type TestDatabase } from "../../../../test/support/engines.ts";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import {
  admitAttempt,
  clearAccount,
  recordSuccess,
  type ThrottleKey,
  takeBackAttempt,
} from "./sign-in-throttle.ts";

const policy = { freeFailures: 3, lockMs: 60_000 };
const start = new Date("2026-11-24T09:00:00.000Z").getTime();
const at = (ms: number) => new Date(start + ms);

function key(name: string, onSuccess: ThrottleKey["onSuccess"] = "clear"): ThrottleKey {
  return { key: name, account: `${name}@firm.example`, policy, onSuccess };
}

describe.each(ENGINES)("sign-in counts on $engine", (engine) => {
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

  async function failuresOf(name: string) {
    const row = await database.db
      .selectFrom("sign_in_throttle")
      .select(["failures", "locked_until"])
      .where("key", "=", name)
      .executeTakeFirst();
    return row && { failures: row.failures, locked: row.locked_until !== null };
  }

  it("admits the free attempts, then refuses unchecked until the lock ends, and locks twice as long next", async () => {
    const k = key("doubling");
    for (let n = 0; n < policy.freeFailures; n++) {
      expect(await admitAttempt(database.db, [k], at(n))).toEqual({ admitted: true });
    }
    const lockedAt = policy.freeFailures - 1;
    expect(await admitAttempt(database.db, [k], at(59_000))).toEqual({
      admitted: false,
      lockedUntil: at(lockedAt + 60_000),
    });
    // A refused attempt is not counted.
    expect(await failuresOf("doubling")).toEqual({ failures: 3, locked: true });
    expect(await admitAttempt(database.db, [k], at(lockedAt + 60_000))).toEqual({
      admitted: true,
    });
    expect(await admitAttempt(database.db, [k], at(lockedAt + 60_001))).toEqual({
      admitted: false,
      lockedUntil: at(lockedAt + 60_000 + 120_000),
    });
  });

  it("counts an attempt under every key or, when one is locked, under none", async () => {
    const locked = key("all-or-none-locked");
    for (let n = 0; n < policy.freeFailures; n++) await admitAttempt(database.db, [locked], at(0));
    const open = key("all-or-none-open");
    const result = await admitAttempt(database.db, [open, locked], at(1000));
    expect(result.admitted).toBe(false);
    expect(await failuresOf("all-or-none-open")).toBeUndefined();
  });

  it("takes back an attempt that was no failure, unlocking a key that falls below its allowance", async () => {
    const k = key("taken-back");
    for (let n = 0; n < policy.freeFailures; n++) await admitAttempt(database.db, [k], at(0));
    expect(await failuresOf("taken-back")).toEqual({ failures: 3, locked: true });
    await takeBackAttempt(database.db, [k]);
    expect(await failuresOf("taken-back")).toEqual({ failures: 2, locked: false });
  });

  it("clears the owner's own keys on success and takes the attempt back from the shared ones", async () => {
    const own = key("success-own");
    const shared = key("success-shared", "take back");
    await admitAttempt(database.db, [shared], at(0));
    await admitAttempt(database.db, [own, shared], at(1000));
    await recordSuccess(database.db, [own, shared]);
    expect(await failuresOf("success-own")).toBeUndefined();
    expect(await failuresOf("success-shared")).toEqual({ failures: 1, locked: false });
  });

  it("forgets a count a day old", async () => {
    const k = key("forgotten");
    for (let n = 0; n < policy.freeFailures - 1; n++) await admitAttempt(database.db, [k], at(0));
    await admitAttempt(database.db, [k], at(24 * 60 * 60 * 1000 + 1));
    expect(await failuresOf("forgotten")).toEqual({ failures: 1, locked: false });
  });

  it("forgets every key of an account whose password is set", async () => {
    const keys = ["reset-a", "reset-b"].map((name) => ({
      ...key(name),
      account: "reset@firm.example",
    }));
    await admitAttempt(database.db, keys, at(0));
    await clearAccount(database.db, "reset@firm.example");
    expect(await failuresOf("reset-a")).toBeUndefined();
    expect(await failuresOf("reset-b")).toBeUndefined();
  });
});
