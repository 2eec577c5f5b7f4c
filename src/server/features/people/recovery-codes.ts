/**
 * Recovery codes for a lost authenticator: ten codes of ten characters
 * (50 random bits each), from an alphabet without look-alikes (no 0/O, 1/I),
 * shown as two groups of five. Only hashes are stored.
 */
import { randomBytes } from "node:crypto";
import { RECOVERY_CODE_COUNT } from "../../../shared/admin/account.ts";
import { hashToken } from "../../platform/console/tokens.ts";
import { normalizeRecoveryCode } from "./second-factor.ts";

const ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"; // 32 letters: a byte's low 5 bits pick one evenly.
const LENGTH = 10;

function newRecoveryCode(): string {
  const letters = [...randomBytes(LENGTH)].map((byte) => ALPHABET[byte & 31]).join("");
  return `${letters.slice(0, 5)}-${letters.slice(5)}`;
}

export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  return { codes, hashes: codes.map((code) => hashToken(normalizeRecoveryCode(code))) };
}
