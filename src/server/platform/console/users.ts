/** Console accounts. An e-mail address is stored lower-cased and is unique. */
import type { Kysely, Selectable } from "kysely";
import type { Role } from "../../../shared/admin/roles.ts";
import { type Database, nowIso } from "../db/schema.ts";
import { inTransaction } from "../db/transaction.ts";

export interface ConsoleUser {
  id: number;
  email: string;
  name: string;
  role: Role;
  passwordHash: string | null;
  totpSecret: string | null;
  secondFactor: boolean;
}

const COLUMNS = [
  "id",
  "email",
  "name",
  "role",
  "password_hash",
  "totp_secret",
  "totp_enabled_at",
] as const;

type UserRow = Pick<Selectable<Database["users"]>, (typeof COLUMNS)[number]>;

function toUser(row: UserRow): ConsoleUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    passwordHash: row.password_hash,
    totpSecret: row.totp_secret,
    secondFactor: row.totp_enabled_at !== null,
  };
}

export async function findUserByEmail(
  db: Kysely<Database>,
  email: string,
): Promise<ConsoleUser | undefined> {
  const row = await db
    .selectFrom("users")
    .select(COLUMNS)
    .where("email", "=", email.toLowerCase())
    .executeTakeFirst();
  return row && toUser(row);
}

export async function findUserById(
  db: Kysely<Database>,
  id: number,
): Promise<ConsoleUser | undefined> {
  const row = await db.selectFrom("users").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  return row && toUser(row);
}

/**
 * Creates an account without a password (its owner sets one through an
 * e-mailed link), or returns the existing one with that address: the unique
 * constraint decides, so two invitations at once make one account.
 */
export async function ensureUser(
  db: Kysely<Database>,
  { email, name = "", role }: { email: string; name?: string; role: Role },
): Promise<{ user: ConsoleUser; created: boolean }> {
  const now = nowIso();
  const inserted = await db
    .insertInto("users")
    .values({ email: email.toLowerCase(), name, role, created_at: now, updated_at: now })
    .onConflict((conflict) => conflict.column("email").doNothing())
    .returning(COLUMNS)
    .executeTakeFirst();
  if (inserted) return { user: toUser(inserted), created: true };
  const existing = await findUserByEmail(db, email);
  if (!existing) throw new Error(`account ${email} neither inserted nor found`);
  return { user: existing, created: false };
}

/**
 * Sets an account's password and, in the same transaction, revokes every
 * invitation and reset link it still has: a link mailed before the password
 * was chosen must not choose another one later.
 */
export function setPasswordHash(
  db: Kysely<Database>,
  userId: number,
  passwordHash: string,
): Promise<void> {
  return inTransaction(db, async (trx) => {
    await trx
      .updateTable("users")
      .set({ password_hash: passwordHash, updated_at: nowIso() })
      .where("id", "=", userId)
      .execute();
    await trx.deleteFrom("user_tokens").where("user_id", "=", userId).execute();
  });
}

/** The owners who can sign in (an invited owner who never set a password is left out). */
export async function ownerAddresses(db: Kysely<Database>): Promise<string[]> {
  const owners = await db
    .selectFrom("users")
    .select("email")
    .where("role", "=", "owner")
    .where("password_hash", "is not", null)
    .execute();
  return owners.map(({ email }) => email);
}
