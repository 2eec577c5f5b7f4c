/**
 * The second factor at sign-in: a TOTP code from an authenticator app
 * (otplib, 30-second steps, one step of drift either way), or one of the
 * account's single-use recovery codes.
 */
import type { Kysely } from "kysely";
import { verify } from "otplib";
import type { Database } from "../db/schema.ts";
import type { ConsoleUser } from "../db/users.ts";
import { hashToken } from "./tokens.ts";

const TOTP_CODE = /^\d{6}$/;

/** Recovery codes are compared without dashes or case: "abcd-efgh" = "ABCDEFGH". */
export function normalizeRecoveryCode(code: string): string {
  return code.replace(/-/g, "").toUpperCase();
}

export async function verifySecondFactor(
  db: Kysely<Database>,
  user: ConsoleUser,
  code: string,
): Promise<boolean> {
  if (!user.totpSecret) return false;
  if (TOTP_CODE.test(code)) {
    const result = await verify({ secret: user.totpSecret, token: code, epochTolerance: 30 });
    return result.valid;
  }
  // One update decides: a recovery code works once, even for two sign-ins at the same moment.
  const used = await db
    .updateTable("recovery_codes")
    .set({ used_at: new Date().toISOString() })
    .where("user_id", "=", user.id)
    .where("code_hash", "=", hashToken(normalizeRecoveryCode(code)))
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}
