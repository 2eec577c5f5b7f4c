/**
 * A database written before any server opens it, for a browser test file's own server
 * (own-server.ts): the server then migrates nothing more and seeds what is
 * missing. Once a server runs on it, only the server writes to it.
 */
import { renderIssue } from "../../src/server/features/newsletter/render.ts";
import { hashPassword } from "../../src/server/features/people/passwords.ts";
import { ensureUser, setPasswordHash } from "../../src/server/platform/console/users.ts";
import { type DatabaseHandle, openDatabase } from "../../src/server/platform/db/connection.ts";
import { migrateToLatest } from "../../src/server/platform/db/migrations.ts";
import type { IssueDraft } from "../../src/shared/admin/newsletter.ts";
import type { Role } from "../../src/shared/admin/roles.ts";
import type { TestSmtp } from "../../test/support/smtp.ts";
import { CONSOLE_PASSWORD, type ConsoleAccount } from "./console.ts";
import { newDatabaseFile, startOwnServer } from "./own-server.ts";

/** A new, migrated database file with what `fill` writes into it. */
export async function preparedDatabase(
  label: string,
  fill: (database: DatabaseHandle) => Promise<void>,
): Promise<string> {
  const sqliteFile = newDatabaseFile(label);
  const database = openDatabase({ sqliteFile });
  try {
    await migrateToLatest(database.db, database.engine);
    await fill(database);
  } finally {
    await database.db.destroy();
  }
  return sqliteFile;
}

/** An issue whose send finished at `sentAt`, rendered as "send now" renders it; its id. */
export async function writeSentIssue(
  { db }: DatabaseHandle,
  draft: IssueDraft,
  { author, sentAt, recipients = 0 }: { author: string; sentAt: string; recipients?: number },
): Promise<number> {
  const rendered = renderIssue(draft, { origin: "http://localhost:3000" });
  const { id } = await db
    .insertInto("issues")
    .values({
      ...draft,
      status: "sent",
      started_at: sentAt,
      queued_all_at: sentAt,
      finished_at: sentAt,
      recipients,
      email_html: rendered.emailHtml,
      email_text: rendered.emailText,
      web_html: rendered.webHtml,
      author,
      created_at: sentAt,
      updated_at: sentAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

/** `count` copies of an issue, sent at `sentAt`; `message` gives copy n's stored message. */
export async function writeSentCopies(
  { db }: DatabaseHandle,
  issueId: number,
  {
    count,
    sentAt,
    message = () => "{}",
  }: { count: number; sentAt: string; message?: (n: number) => string },
): Promise<void> {
  // In parts: well under both engines' limit on bound parameters.
  for (let start = 0; start < count; start += 200) {
    await db
      .insertInto("outbox")
      .values(
        Array.from({ length: Math.min(200, count - start) }, (_, n) => ({
          kind: "newsletter",
          priority: "bulk" as const,
          message: message(start + n),
          status: "sent" as const,
          next_attempt_at: sentAt,
          sent_at: sentAt,
          issue_id: issueId,
          created_at: sentAt,
          updated_at: sentAt,
        })),
      )
      .execute();
  }
}

/** A console account with a password, as an accepted invitation leaves it. */
export async function writeConsoleAccount(
  { db }: DatabaseHandle,
  role: Role,
  email: string,
  name: string,
): Promise<ConsoleAccount> {
  const { user } = await ensureUser(db, { email, role, name });
  await setPasswordHash(db, user.id, await hashPassword(CONSOLE_PASSWORD));
  return { email, password: CONSOLE_PASSWORD, role };
}

export interface PreparedServer {
  origin: string;
  account: ConsoleAccount;
  /** The SMTP server the server sends to, which records what it is sent. */
  smtp: TestSmtp;
}

/**
 * Runs `use` against a server of its own (own-server.ts), started with `env`
 * on a database holding what `fill` wrote and `account`, with its password.
 */
export async function onPreparedServer(
  label: string,
  account: { role: Role; email: string; name: string },
  fill: (database: DatabaseHandle) => Promise<void>,
  use: (server: PreparedServer) => Promise<void>,
  env: Record<string, string> = {},
): Promise<void> {
  let written: ConsoleAccount | undefined;
  const sqliteFile = await preparedDatabase(label, async (database) => {
    await fill(database);
    written = await writeConsoleAccount(database, account.role, account.email, account.name);
  });
  if (!written) throw new Error(`${label}: the account was not written`);
  const server = await startOwnServer(label, { ...env, SQLITE_FILE: sqliteFile });
  try {
    await use({ origin: server.origin, account: written, smtp: server.smtp });
  } finally {
    await server.close();
  }
}
