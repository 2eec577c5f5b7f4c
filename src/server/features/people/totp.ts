/**
 * Setting up and turning off an account's TOTP second factor. A set-up
 * stores its secret unconfirmed (totp_enabled_at null: sign-in ignores it)
 * until a code from the app proves the secret arrived; confirming replaces
 * the recovery codes, kept only as hashes.
 */
import type { Kysely } from "kysely";
import { type Database, nowIso } from "../../platform/db/schema.ts";
import { inTransaction } from "../../platform/db/transaction.ts";

/** Stores a new unconfirmed secret; false when the account's second factor is already on. */
export async function storePendingSecret(
  db: Kysely<Database>,
  userId: number,
  secret: string,
): Promise<boolean> {
  const result = await db
    .updateTable("users")
    .set({ totp_secret: secret, updated_at: nowIso() })
    .where("id", "=", userId)
    .where("totp_enabled_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function pendingSecret(
  db: Kysely<Database>,
  userId: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom("users")
    .select("totp_secret")
    .where("id", "=", userId)
    .where("totp_enabled_at", "is", null)
    .executeTakeFirst();
  return row?.totp_secret ?? undefined;
}

/**
 * Turns the second factor on for the secret the code was checked against,
 * with these recovery codes; false when that secret is no longer the one
 * waiting (a newer set-up replaced it, or it was confirmed already).
 */
export function enableSecondFactor(
  db: Kysely<Database>,
  userId: number,
  secret: string,
  recoveryCodeHashes: string[],
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const now = nowIso();
    const result = await trx
      .updateTable("users")
      .set({ totp_enabled_at: now, updated_at: now })
      .where("id", "=", userId)
      .where("totp_secret", "=", secret)
      .where("totp_enabled_at", "is", null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await trx.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
    await trx
      .insertInto("recovery_codes")
      .values(recoveryCodeHashes.map((code_hash) => ({ user_id: userId, code_hash })))
      .execute();
    return true;
  });
}

export function disableSecondFactor(db: Kysely<Database>, userId: number): Promise<void> {
  return inTransaction(db, async (trx) => {
    await trx
      .updateTable("users")
      .set({ totp_secret: null, totp_enabled_at: null, updated_at: nowIso() })
      .where("id", "=", userId)
      .execute();
    await trx.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
  });
}

/**
 * Spends a TOTP time step for the account; false when that step or a later
 * one was accepted already. One update decides, so a code sent twice at the
 * same moment opens the account once.
 */
export async function spendTotpStep(
  db: Kysely<Database>,
  userId: number,
  step: number,
): Promise<boolean> {
  const result = await db
    .updateTable("users")
    .set({ totp_last_step: step })
    .where("id", "=", userId)
    .where((eb) => eb.or([eb("totp_last_step", "is", null), eb("totp_last_step", "<", step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function unusedRecoveryCodes(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await db
    .selectFrom("recovery_codes")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Removes the recovery codes used more than `keptMs` before `now`; how many. The unused count is unchanged. */
export async function purgeUsedRecoveryCodes(
  db: Kysely<Database>,
  keptMs: number,
  now: Date,
): Promise<number> {
  const cutoff = new Date(now.getTime() - keptMs).toISOString();
  const result = await db
    .deleteFrom("recovery_codes")
    .where("used_at", "<", cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
