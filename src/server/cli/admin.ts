/**
 * `npm run admin:create -- --email you@firm.example [--name "Your Name"]`:
 * makes the first owner of the console (or finds the account with that
 * address) and prints a one-time link to set its password. The same link is
 * e-mailed through the outbox, so it also lands in the mailbox (or SMTP).
 * It writes, so it brings the database's schema up to date first, as the
 * server does at start (ADR 048).
 */
import { z } from "zod";
import { currentMailSettings } from "../features/mail-settings/index.ts";
import { AccountMail, issueUserToken } from "../features/people/index.ts";
import { recordAudit } from "../platform/audit/queries.ts";
import { ensureUser } from "../platform/console/users.ts";
import { openDatabase } from "../platform/db/connection.ts";
import { migrateToLatest } from "../platform/db/migrations.ts";
import { inOutboxTransaction } from "../platform/outbox/queue.ts";
import { processConfig } from "../settings.ts";
import { commandLine, Refusal, runCommand } from "./command-line.ts";

const USAGE = `Usage: npm run admin:create -- --email you@firm.example [--name "Your Name"]

Makes the console's first owner (or finds the account with that address)
and prints a one-time link to set its password; the link is e-mailed too.`;

async function main() {
  const { positionals, values } = commandLine(USAGE, {
    allowPositionals: true,
    options: { email: { type: "string" }, name: { type: "string" } },
  });
  const [command, ...extra] = positionals;
  if (command !== "create" || extra.length > 0) {
    throw new Refusal(`Unexpected argument "${extra[0] ?? command ?? ""}".\n${USAGE}`);
  }
  const email = z.email().safeParse(values.email);
  if (!email.success) {
    const wrong =
      values.email === undefined ? "--email is missing" : "--email is not an e-mail address";
    throw new Refusal(`${wrong}.\n${USAGE}`);
  }
  const config = processConfig();
  const { db, engine } = openDatabase({
    databaseUrl: config.DATABASE_URL,
    sqliteFile: config.SQLITE_FILE,
  });
  try {
    await migrateToLatest(db, engine);
    const mail = new AccountMail({
      publicOrigin: config.PUBLIC_ORIGIN,
      sender: async (trx) => (await currentMailSettings(trx, config)).from,
    });
    // The account, its link and the audit entry are kept together, or none is.
    // The running server's outbox sender delivers the mail (at once, or at its next start).
    const { user, created, link } = await inOutboxTransaction(
      db,
      async (trx) => {
        const { user, created } = await ensureUser(trx, {
          email: email.data,
          name: values.name ?? "",
          role: "owner",
        });
        const purpose = user.passwordHash ? "reset" : "invite";
        const token = await issueUserToken(trx, user.id, purpose);
        const link =
          purpose === "reset"
            ? await mail.reset(trx, user.email, token)
            : await mail.invitation(
                trx,
                { to: user.email, role: user.role, inviter: "command line" },
                token,
              );
        await recordAudit(trx, {
          userId: null,
          actor: "command line",
          action: created ? "owner-created" : "password-link-issued",
          target: user.email,
        });
        return { user, created, link };
      },
      () => {},
    );
    console.log(
      created
        ? `Created ${user.role} ${user.email}.`
        : `${user.email} already has an account (${user.role}).`,
    );
    console.log(`Open this link once to set the password (it was e-mailed too):\n${link}`);
  } finally {
    await db.destroy();
  }
}

runCommand(main);
