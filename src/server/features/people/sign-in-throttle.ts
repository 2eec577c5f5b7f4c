/**
 * Sign-in attempts, counted under keys (an account at one address, an
 * account's untrusted clients together, an address, a known device). An
 * attempt is counted before its password is checked, and the count decides
 * whether it is checked at all: after a key's free attempts each new one
 * locks it for twice as long as the last, up to an hour, and nothing is
 * checked while a key is locked. A success takes its own attempt back, or
 * clears the keys only its owner can use. A key is counted whether or not
 * the account exists, so a lock tells nothing about existence. The counts
 * live in the database, so every instance sees the same ones.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "../../platform/db/schema.ts";
import { inTransaction } from "../../platform/db/transaction.ts";

export interface ThrottlePolicy {
  /** Failures before the first lock. */
  freeFailures: number;
  /** The first lock's length; each further failure doubles it. */
  lockMs: number;
}

export interface ThrottleKey {
  key: string;
  /** The account whose key this is (its keys go when its password is set), or null for an address. */
  account: string | null;
  policy: ThrottlePolicy;
  /**
   * What a successful sign-in does to the key: "clear" for the keys a
   * stranger cannot share (the account at that address, the device), "take
   * back" for the shared ones, where others' failures must still count.
   */
  onSuccess: "clear" | "take back";
}

export type Admission = { admitted: true } | { admitted: false; lockedUntil: Date };

const MAX_LOCK_MS = 60 * 60 * 1000;
/** A count older than this starts again from nothing. */
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;

export function lockLengthMs(failures: number, policy: ThrottlePolicy): number {
  if (failures < policy.freeFailures) return 0;
  return Math.min(policy.lockMs * 2 ** (failures - policy.freeFailures), MAX_LOCK_MS);
}

/** Thrown inside the counting transaction to undo the keys counted before a locked one. */
class KeyLocked extends Error {
  constructor(readonly until: Date) {
    super("sign-in key locked");
  }
}

/**
 * Counts one attempt under every key, or under none when any is locked. For
 * each key one upsert decides: it counts the attempt only while the key is
 * unlocked, and the lock its count earns is written in the same transaction,
 * which holds the row until it commits, so no parallel attempt slips in
 * between the count and its lock.
 */
export async function admitAttempt(
  db: Kysely<Database>,
  keys: ThrottleKey[],
  now = new Date(),
): Promise<Admission> {
  // One order for everyone: two attempts sharing keys never wait on each other crosswise.
  const ordered = [...keys].sort((a, b) => (a.key < b.key ? -1 : 1));
  try {
    await inTransaction(db, async (trx) => {
      for (const key of ordered) await countAttempt(trx, key, now);
    });
    return { admitted: true };
  } catch (error) {
    if (error instanceof KeyLocked) return { admitted: false, lockedUntil: error.until };
    throw error;
  }
}

async function countAttempt(
  trx: Transaction<Database>,
  { key, account, policy }: ThrottleKey,
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  const forgotten = new Date(now.getTime() - FORGET_AFTER_MS).toISOString();
  const counted = await trx
    .insertInto("sign_in_throttle")
    .values({ key, account, failures: 1, updated_at: at })
    .onConflict((conflict) =>
      conflict
        .column("key")
        .doUpdateSet({
          failures: sql`case when sign_in_throttle.updated_at < ${forgotten} then 1 else sign_in_throttle.failures + 1 end`,
          updated_at: at,
        })
        .where((eb) =>
          eb.or([
            eb("sign_in_throttle.locked_until", "is", null),
            eb("sign_in_throttle.locked_until", "<=", at),
          ]),
        ),
    )
    .returning("failures")
    .executeTakeFirst();
  if (!counted) {
    const row = await trx
      .selectFrom("sign_in_throttle")
      .select("locked_until")
      .where("key", "=", key)
      .executeTakeFirstOrThrow();
    throw new KeyLocked(new Date(row.locked_until ?? at));
  }
  const lockMs = lockLengthMs(counted.failures, policy);
  if (lockMs > 0) {
    await trx
      .updateTable("sign_in_throttle")
      .set({ locked_until: new Date(now.getTime() + lockMs).toISOString() })
      .where("key", "=", key)
      .execute();
  }
}

/**
 * Takes an attempt back from each key: it was no failure. A key whose count
 * falls below its free attempts is unlocked.
 */
export async function takeBackAttempt(db: Kysely<Database>, keys: ThrottleKey[]): Promise<void> {
  for (const { key, policy } of keys) {
    await db
      .updateTable("sign_in_throttle")
      .set({
        failures: sql`case when failures > 0 then failures - 1 else 0 end`,
        locked_until: sql`case when failures - 1 < ${policy.freeFailures} then null else locked_until end`,
      })
      .where("key", "=", key)
      .execute();
  }
}

/** After a successful sign-in: the keys only its owner can use start afresh, the rest take the attempt back. */
export async function recordSuccess(db: Kysely<Database>, keys: ThrottleKey[]): Promise<void> {
  const cleared = keys.filter((key) => key.onSuccess === "clear").map(({ key }) => key);
  if (cleared.length) await db.deleteFrom("sign_in_throttle").where("key", "in", cleared).execute();
  await takeBackAttempt(
    db,
    keys.filter((key) => key.onSuccess === "take back"),
  );
}

/** Forgets every count of an account: whoever set its password has proved they own it. */
export async function clearAccount(db: Kysely<Database>, email: string): Promise<void> {
  await db.deleteFrom("sign_in_throttle").where("account", "=", email).execute();
}
