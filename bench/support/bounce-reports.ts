/**
 * Bounces for the send benchmark: while the server sends, the copies to one
 * reader in fifty come back as delivery status notifications, appended to a
 * real bounce mailbox (Dovecot, test/support/mail-servers.ts) addressed to
 * each copy's own bounce address, as a receiving server's DSN would arrive.
 * The server reads that mailbox (BOUNCE_IMAP_URL); this measures how long
 * each report takes from its arrival to its address's suppression.
 */
import { ImapFlow } from "imapflow";
import type { Kysely } from "kysely";
import type { Database } from "../../src/server/platform/db/schema.ts";
import type { MailServers } from "../../test/support/mail-servers.ts";
import { percentile } from "./latency-sampler.ts";

export interface BounceFigures {
  reports: number;
  suppressed: number;
  /** Report arrival → suppression, in ms. */
  p50: number;
  p99: number;
  max: number;
}

function dsn(recipient: string, bounceAddress: string, n: number): string {
  const boundary = `bench-${n}`;
  return [
    "From: Mail Delivery System <MAILER-DAEMON@mx.readers.example>",
    `To: ${bounceAddress}`,
    "Subject: Undelivered Mail Returned to Sender",
    `Message-ID: <bench-dsn-${n}@mx.readers.example>`,
    "MIME-Version: 1.0",
    `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    "Content-Type: text/plain",
    "",
    `<${recipient}>: host mx.readers.example said: 550 5.1.1 User unknown`,
    "",
    `--${boundary}`,
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; mx.readers.example",
    "",
    `Final-Recipient: rfc822; ${recipient}`,
    "Action: failed",
    "Status: 5.1.1",
    "Diagnostic-Code: smtp; 550 5.1.1 User unknown",
    "",
    `--${boundary}--`,
    "",
  ].join("\r\n");
}

export async function startBounceReports(servers: MailServers, db: Kysely<Database>) {
  const client = new ImapFlow({
    host: servers.imap.host,
    port: servers.imap.port,
    secure: false,
    auth: { user: servers.imap.user, pass: servers.imap.pass },
    logger: false,
  });
  await client.connect();
  const arrivedAt = new Map<string, number>();
  const suppressedAfter = new Map<string, number>();
  let appending: Promise<unknown> = Promise.resolve();
  let count = 0;

  // Polls the list the server keeps, as the console would show it.
  let polling = true;
  const poll = (async () => {
    while (polling) {
      const rows = await db.selectFrom("suppressions").select("email").execute();
      const now = performance.now();
      for (const { email } of rows) {
        const at = arrivedAt.get(email);
        if (at !== undefined && !suppressedAfter.has(email)) suppressedAfter.set(email, now - at);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();

  return {
    /** A copy to `recipient` left from `bounceAddress`: its report arrives in the mailbox. */
    bounce(recipient: string, bounceAddress: string) {
      count += 1;
      const n = count;
      appending = appending.then(async () => {
        await client.append("INBOX", dsn(recipient, bounceAddress, n));
        arrivedAt.set(recipient.toLowerCase(), performance.now());
      });
    },
    /** Waits (up to `limitMs`) until every report has been acted on, then stops and tells. */
    async finish(limitMs: number): Promise<BounceFigures> {
      await appending;
      const deadline = performance.now() + limitMs;
      while (suppressedAfter.size < arrivedAt.size && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      polling = false;
      await poll;
      await client.logout();
      const sorted = [...suppressedAfter.values()].sort((a, b) => a - b);
      return {
        reports: arrivedAt.size,
        suppressed: sorted.length,
        p50: percentile(sorted, 0.5),
        p99: percentile(sorted, 0.99),
        max: sorted.at(-1) ?? 0,
      };
    },
    /** Stops polling and appending when the send failed, before its database is closed. */
    async abandon(): Promise<void> {
      polling = false;
      await poll.catch(() => undefined);
      await appending.catch(() => undefined);
      await client.logout().catch(() => undefined);
    },
  };
}
