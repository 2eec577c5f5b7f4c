/**
 * The second factor at sign-in: a TOTP code from an authenticator app
 * (otplib, 30-second steps), or one of the account's single-use recovery
 * codes. A TOTP code is taken from the current step or the one before it
 * (a code typed as its step ends), never from a step to come, and each step
 * opens the account once (features/people/totp.ts).
 */
import type { Kysely } from "kysely";
import { verify } from "otplib";
import { hashToken } from "../../platform/console/tokens.ts";
import type { ConsoleUser } from "../../platform/console/users.ts";
import type { Database } from "../../platform/db/schema.ts";
import { spendTotpStep } from "./totp.ts";

const TOTP_STEP_SECONDS = 30;
const TOTP_CODE = /^\d{6}$/;

/** Recovery codes are compared without dashes or case: "abcd-efgh" = "ABCDEFGH". */
export function normalizeRecoveryCode(code: string): string {
  return code.replace(/-/g, "").toUpperCase();
}

export async function verifySecondFactor(
  db: Kysely<Database>,
  user: ConsoleUser,
  code: string,
  now = new Date(),
): Promise<boolean> {
  if (!user.totpSecret) return false;
  if (TOTP_CODE.test(code)) {
    const epoch = Math.floor(now.getTime() / 1000);
    const result = await verify({
      secret: user.totpSecret,
      token: code,
      period: TOTP_STEP_SECONDS,
      epoch,
      // One step back and none ahead: [seconds before now, seconds after].
      epochTolerance: [TOTP_STEP_SECONDS, 0],
    });
    if (!result.valid) return false;
    // delta: how many steps from the current one the code matched (0 or -1).
    return spendTotpStep(db, user.id, Math.floor(epoch / TOTP_STEP_SECONDS) + result.delta);
  }
  // One update decides: a recovery code works once, even for two sign-ins at the same moment.
  const used = await db
    .updateTable("recovery_codes")
    .set({ used_at: now.toISOString() })
    .where("user_id", "=", user.id)
    .where("code_hash", "=", hashToken(normalizeRecoveryCode(code)))
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}
