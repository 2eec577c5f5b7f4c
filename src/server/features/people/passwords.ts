/**
 * Password hashing with Argon2id (@node-rs/argon2's default algorithm), at
 * OWASP's recommended cost: 19 MiB of memory, two passes, one lane.
 */
import { hash, verify } from "@node-rs/argon2";

const COST = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, COST);
}

/** Made once, so checking an unknown account costs what checking a known one does. */
let standIn: Promise<string> | undefined;

/**
 * Whether `password` matches `stored`. With no stored hash (no such account,
 * or one that never set a password) it still verifies against a stand-in,
 * so the answer's timing does not tell whether the account exists.
 */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (stored === null) {
    standIn ??= hashPassword("a stand-in password nobody has");
    await verify(await standIn, password);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
