/**
 * Console accounts for browser tests, made in the test server's own database
 * (as an accepted invitation leaves them), and signing in through the page.
 */
import { hashPassword } from "../../src/server/features/people/passwords.ts";
import { ensureUser, setPasswordHash } from "../../src/server/platform/console/users.ts";
import { openDatabase } from "../../src/server/platform/db/connection.ts";
import type { Role } from "../../src/shared/admin/roles.ts";
import { expect, type Page } from "./test.ts";

export const CONSOLE_PASSWORD = "a long and memorable passphrase";

export interface ConsoleAccount {
  email: string;
  password: string;
  role: Role;
}

function serverDatabase() {
  const sqliteFile = process.env.E2E_SQLITE_FILE;
  if (!sqliteFile) throw new Error("E2E_SQLITE_FILE is not set (playwright.config.ts sets it)");
  return openDatabase({ sqliteFile });
}

/** An account with a password; `label` keeps parallel tests' accounts apart. */
export async function consoleAccount(role: Role, label: string): Promise<ConsoleAccount> {
  const email = `${label}-${role}@firm.example`.toLowerCase();
  const { db } = serverDatabase();
  try {
    const { user } = await ensureUser(db, { email, role, name: `${label} ${role}` });
    await setPasswordHash(db, user.id, await hashPassword(CONSOLE_PASSWORD));
  } finally {
    await db.destroy();
  }
  return { email, password: CONSOLE_PASSWORD, role };
}

/** When the last of the account's sign-in locks ends (ms since the epoch), or 0 when it has none. */
export async function accountLockedUntil(email: string): Promise<number> {
  const { db } = serverDatabase();
  try {
    const row = await db
      .selectFrom("sign_in_throttle")
      .select((eb) => eb.fn.max("locked_until").as("until"))
      .where("account", "=", email)
      .executeTakeFirst();
    return row?.until ? new Date(row.until).getTime() : 0;
  } finally {
    await db.destroy();
  }
}

export async function signInToConsole(page: Page, account: ConsoleAccount, path = "/admin") {
  await page.goto(path);
  await page.getByLabel("E-mail address").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("navigation", { name: "Console" })).toBeVisible();
}
