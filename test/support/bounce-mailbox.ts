/**
 * The bounce mailbox of the real mail servers (test/support/mail-servers.ts)
 * as the mailbox tests use it: messages sent through Postfix to the bounce
 * domain, found in Dovecot by their subjects, and where the site's reader
 * stands in it.
 */
import { randomUUID } from "node:crypto";
import { ImapFlow } from "imapflow";
import nodemailer from "nodemailer";
import { expect } from "vitest";
import type { DatabaseHandle } from "../../src/server/platform/db/connection.ts";
import { bounceAddressFor } from "../../src/server/platform/outbox/bounce-address.ts";
import type { MailServers } from "./mail-servers.ts";

/**
 * Postfix files within a second and the reader polls every 100 ms; the
 * wait is long only so a machine under load does not fail a test.
 */
export const ARRIVAL = { timeout: 30_000, interval: 100 };

/** A raw message and the envelope recipient it is sent to. */
export interface Delivery {
  raw: string;
  to: string;
}

export function bounceMailbox(servers: MailServers) {
  const plainAddress = `bounces@${servers.bounceDomain}`;
  const { imap } = servers;
  return {
    /** BOUNCE_ADDRESS: the plain bounce address, which anyone can write to. */
    plainAddress,
    /** BOUNCE_IMAP_URL. */
    imapUrl: `imap://${imap.user}:${imap.pass}@${imap.host}:${imap.port}/INBOX`,

    /** Sends each message through Postfix, in order, with the null sender a report has. */
    async deliver(messages: Delivery[]): Promise<void> {
      const transport = nodemailer.createTransport({
        host: servers.smtp.host,
        port: servers.smtp.port,
        secure: false,
        ignoreTLS: true,
      });
      try {
        for (const { raw, to } of messages) {
          await transport.sendMail({ envelope: { from: "", to: [to] }, raw });
        }
      } finally {
        transport.close();
      }
    },

    /** An ordinary message, no report, to the plain address. */
    ordinary(subject: string): Delivery {
      return {
        raw: [
          "From: A person <someone@example.org>",
          `To: ${plainAddress}`,
          `Subject: ${subject}`,
          "",
          "Hello, is this the right address for questions?",
          "",
        ].join("\r\n"),
        to: plainAddress,
      };
    },

    /** The UIDs of the messages with these subjects, once Dovecot holds them all. */
    async uidsOf(subjects: string[]): Promise<number[]> {
      const client = new ImapFlow({
        host: imap.host,
        port: imap.port,
        secure: false,
        auth: { user: imap.user, pass: imap.pass },
        logger: false,
      });
      await client.connect();
      try {
        let found: number[] = [];
        await expect
          .poll(async () => {
            const lock = await client.getMailboxLock("INBOX");
            try {
              // Dovecot tells a session of messages that came since it
              // looked on a NOOP, not in the middle of a FETCH.
              await client.noop();
              const messages = await client.fetchAll("1:*", { uid: true, envelope: true });
              found = subjects.map(
                (subject) =>
                  messages.find((message) => message.envelope?.subject === subject)?.uid ?? 0,
              );
              return found.every((uid) => uid > 0);
            } finally {
              lock.release();
            }
          }, ARRIVAL)
          .toBe(true);
        return found;
      } finally {
        await client.logout();
      }
    },
  };
}

export type BounceMailbox = ReturnType<typeof bounceMailbox>;

/** Where the site's reader stands in the bounce mailbox: the last UID it read. */
export async function placeIn(database: DatabaseHandle): Promise<number> {
  const rows = await database.db
    .selectFrom("site_meta")
    .select("value")
    .where("key", "like", "bounce_mailbox:%")
    .execute();
  return Math.max(0, ...rows.map((row) => Number(row.value)));
}

/**
 * A message the site sent to `email`, as the outbox keeps it once sent: its
 * row, its Message-ID, and the signed bounce address its reports come back
 * to (made with the server's `secret`).
 */
export async function sentMessage(
  database: DatabaseHandle,
  { plainAddress, secret }: { plainAddress: string; secret: string },
  email: string,
) {
  const now = new Date().toISOString();
  const messageId = `<${randomUUID()}@firm.example>`;
  const { id } = await database.db
    .insertInto("outbox")
    .values({
      kind: "welcome",
      message: JSON.stringify({ messageId, to: email, subject: "Welcome" }),
      status: "sent",
      sent_at: now,
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id, messageId, bounceAddress: bounceAddressFor(plainAddress, secret, id) };
}
