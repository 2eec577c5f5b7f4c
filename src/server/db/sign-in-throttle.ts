/**
 * Failed sign-ins, counted per account and per address. After a few free
 * failures each new one locks the key for twice as long as the last, up to
 * an hour; a success clears the account's count. A key is counted whether
 * or not an account exists, so a lock tells nothing about existence. The
 * count lives in the database, so every instance sees the same one, and one
 * upsert per failure decides the count.
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "./schema.ts";

export interface ThrottlePolicy {
  /** Failures before the first lock. */
  freeFailures: number;
  /** The first lock's length; each further failure doubles it. */
  lockMs: number;
}

const MAX_LOCK_MS = 60 * 60 * 1000;
/** A count older than this starts again from nothing. */
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;

export function lockLengthMs(failures: number, policy: ThrottlePolicy): number {
  if (failures < policy.freeFailures) return 0;
  return Math.min(policy.lockMs * 2 ** (failures - policy.freeFailures), MAX_LOCK_MS);
}

/** When the latest of the keys' locks ends, or null when none is locked. */
export async function lockedUntil(db: Kysely<Database>, keys: string[]): Promise<Date | null> {
  const now = new Date().toISOString();
  const rows = await db
    .selectFrom("sign_in_throttle")
    .select("locked_until")
    .where("key", "in", keys)
    .where("locked_until", ">", now)
    .execute();
  const ends = rows.map((row) => new Date(row.locked_until ?? 0).getTime());
  return ends.length ? new Date(Math.max(...ends)) : null;
}

export async function recordFailure(
  db: Kysely<Database>,
  key: string,
  policy: ThrottlePolicy,
): Promise<void> {
  const now = new Date();
  const forgotten = new Date(now.getTime() - FORGET_AFTER_MS).toISOString();
  const row = await db
    .insertInto("sign_in_throttle")
    .values({ key, failures: 1, updated_at: now.toISOString() })
    .onConflict((conflict) =>
      conflict.column("key").doUpdateSet({
        failures: sql`case when sign_in_throttle.updated_at < ${forgotten} then 1 else sign_in_throttle.failures + 1 end`,
        updated_at: now.toISOString(),
      }),
    )
    .returning("failures")
    .executeTakeFirstOrThrow();
  const lockMs = lockLengthMs(row.failures, policy);
  if (lockMs > 0) {
    await db
      .updateTable("sign_in_throttle")
      .set({ locked_until: new Date(now.getTime() + lockMs).toISOString() })
      .where("key", "=", key)
      .execute();
  }
}

export async function clearFailures(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom("sign_in_throttle").where("key", "=", key).execute();
}
