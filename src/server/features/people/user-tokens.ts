/**
 * Single-use links for invitations and password resets. Only the token's
 * hash is stored; one update decides whether a token is still good, so two
 * clicks on the same link cannot both use it.
 */
import type { Kysely } from "kysely";
import { hashToken, newSecretToken } from "../../platform/console/tokens.ts";
import { type Database, nowIso, type UserTokenPurpose } from "../../platform/db/schema.ts";

export const LINK_LIFETIME_MS: Record<UserTokenPurpose, number> = {
  invite: 7 * 24 * 60 * 60 * 1000,
  reset: 60 * 60 * 1000,
};

export async function issueUserToken(
  db: Kysely<Database>,
  userId: number,
  purpose: UserTokenPurpose,
): Promise<string> {
  const token = newSecretToken();
  const now = new Date();
  await db
    .insertInto("user_tokens")
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      purpose,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + LINK_LIFETIME_MS[purpose]).toISOString(),
    })
    .execute();
  return token;
}

/** Uses a token up; the account it was for, or undefined when it expired or was used. */
export async function consumeUserToken(
  db: Kysely<Database>,
  token: string,
): Promise<{ userId: number; purpose: UserTokenPurpose } | undefined> {
  const now = nowIso();
  const row = await db
    .updateTable("user_tokens")
    .set({ used_at: now })
    .where("token_hash", "=", hashToken(token))
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .returning(["user_id", "purpose"])
    .executeTakeFirst();
  return row && { userId: row.user_id, purpose: row.purpose };
}

/**
 * Removes the links used or expired more than `keptMs` before `now`; how
 * many. A removed link is refused as an expired one is.
 */
export async function purgeSpentUserTokens(
  db: Kysely<Database>,
  keptMs: number,
  now: Date,
): Promise<number> {
  const cutoff = new Date(now.getTime() - keptMs).toISOString();
  const result = await db
    .deleteFrom("user_tokens")
    .where((eb) => eb.or([eb("used_at", "<", cutoff), eb("expires_at", "<", cutoff)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
