/** Secret tokens (sessions, e-mailed links): random, and stored only as a hash. */
import { createHash, randomBytes } from "node:crypto";

export function newSecretToken(): string {
  return randomBytes(32).toString("base64url");
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
