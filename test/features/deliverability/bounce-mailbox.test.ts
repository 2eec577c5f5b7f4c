/**
 * Bounces end to end against real mail servers, on both engines: an issue
 * goes through Debian's Postfix to 20 addresses of which 3 do not exist;
 * Postfix writes its own DSN for each of the 3 to the copy's signed bounce
 * address; Dovecot holds them in the bounce mailbox; the site reads them
 * over IMAP, suppresses exactly those 3, and the next issue skips them. A
 * message that is not a report stays in the mailbox, unread, and a report
 * whose bounce address is forged suppresses nobody.
 */
import { ImapFlow } from "imapflow";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession, post, startApp, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";
import { VALID_INQUIRY } from "../../support/fixtures.ts";
import { FAST_OUTBOX } from "../../support/mail-env.ts";
import {
  MAIL_SERVERS_SKIP_REASON,
  type MailServers,
  startMailServers,
} from "../../support/mail-servers.ts";
import { addSubscribers, scheduleIssue } from "../../support/newsletter.ts";
import { startSmtp } from "../../support/smtp.ts";

const ORIGIN = "https://www.firm.example";
const RATE = 200;
const READERS = 20;
/** The readers whose mailbox does not exist on the receiving server. */
const GONE = [4, 9, 15];
/** Postfix answers and Dovecot files within a second; the reader polls every 100 ms. */
const ARRIVAL = { timeout: 20_000, interval: 100 };

if (MAIL_SERVERS_SKIP_REASON) console.warn(MAIL_SERVERS_SKIP_REASON);

describe.skipIf(MAIL_SERVERS_SKIP_REASON).each(ENGINES)(
  "the bounce mailbox on $engine",
  (engine) => {
    let servers: MailServers;
    let t: TestApp;
    let readers: string[];
    let gone: string[];

    beforeAll(async () => {
      const addresses = Array.from({ length: READERS }, (_, n) => `reader-${n}@readers.test`);
      gone = GONE.map((n) => addresses[n] ?? "");
      servers = (await startMailServers({
        existing: addresses.filter((address) => !gone.includes(address)),
      })) as MailServers;
      const { imap } = servers;
      t = await startApp(engine, {
        ...FAST_OUTBOX,
        PUBLIC_ORIGIN: ORIGIN,
        SMTP_URL: `smtp://${servers.smtp.host}:${servers.smtp.port}`,
        BOUNCE_ADDRESS: `bounces@${servers.bounceDomain}`,
        BOUNCE_IMAP_URL: `imap://${imap.user}:${imap.pass}@${imap.host}:${imap.port}/INBOX`,
        BOUNCE_POLL_MS: "100",
        NEWSLETTER_RATE_PER_SECOND: String(RATE),
      });
      readers = await addSubscribers(t.database, "reader", READERS, {
        domain: servers.readersDomain,
      });
    }, 30_000);
    afterAll(async () => {
      await t?.close();
      await servers?.stop();
    });

    const db = () => t.database.db;
    const suppressed = () =>
      db()
        .selectFrom("suppressions")
        .innerJoin("delivery_reports", "delivery_reports.id", "suppressions.report_id")
        .select([
          "suppressions.email",
          "reason",
          "kind",
          "status",
          "source",
          "message_kind",
          "issue_id",
        ])
        .orderBy("suppressions.email")
        .execute();

    it("suppresses the 3 addresses Postfix bounced, and the next issue skips them", async () => {
      const first = await scheduleIssue(t.database, "first", RATE, ORIGIN);
      await expect.poll(suppressed, ARRIVAL).toEqual(
        [...gone].sort().map((email) => ({
          email,
          reason: "hard-bounce",
          kind: "hard",
          status: "5.1.1",
          source: "mailbox",
          message_kind: "newsletter",
          issue_id: first.id,
        })),
      );

      const second = await scheduleIssue(t.database, "second", RATE, ORIGIN);
      await expect
        .poll(
          () =>
            db()
              .selectFrom("issues")
              .select(["status", "recipients"])
              .where("id", "=", second.id)
              .executeTakeFirst(),
          ARRIVAL,
        )
        .toEqual({ status: "sent", recipients: READERS - gone.length });
      const queued = await db()
        .selectFrom("outbox")
        .innerJoin("subscriptions", "subscriptions.id", "outbox.subscription_id")
        .select("subscriptions.email")
        .where("issue_id", "=", second.id)
        .execute();
      expect(queued.map((row) => row.email).sort()).toEqual(
        readers.filter((email) => !gone.includes(email)).sort(),
      );
    });

    it("alarms the owners when the firm's own inquiry notification bounces back later", async () => {
      // The firm's inbox no longer exists on the receiving server; the alarm goes another way.
      const alert = await startSmtp();
      const firmInbox = `firm-inbox@${servers.readersDomain}`;
      const { imap } = servers;
      const firm = await startApp(engine, {
        ...FAST_OUTBOX,
        PUBLIC_ORIGIN: ORIGIN,
        SMTP_URL: `smtp://${servers.smtp.host}:${servers.smtp.port}`,
        BOUNCE_ADDRESS: `bounces@${servers.bounceDomain}`,
        BOUNCE_IMAP_URL: `imap://${imap.user}:${imap.pass}@${imap.host}:${imap.port}/INBOX`,
        BOUNCE_POLL_MS: "100",
        INQUIRY_TO: firmInbox,
        ALERT_SMTP_URL: alert.url,
        ALERT_TO: "partner@elsewhere.example",
      });
      try {
        const sent = await post(firm.app, await openSession(firm.app), "/api/v1/send-comment", {
          ...VALID_INQUIRY,
        });
        expect(sent.statusCode).toBe(200);
        const id = (sent.json() as { id: number }).id;
        // Postfix took it; its DSN comes back through the mailbox, and the alarm follows.
        const [alarm] = await alert.waitForMailTo("partner@elsewhere.example");
        expect(alarm?.parsed.subject).toBe(`Not delivered: the notification of inquiry ${id}`);
        const report = await firm.database.db
          .selectFrom("delivery_reports")
          .innerJoin("inquiries", "inquiries.notification_outbox_id", "delivery_reports.outbox_id")
          .select(["delivery_reports.kind", "delivery_reports.source", "message_kind"])
          .where("inquiries.id", "=", id)
          .execute();
        expect(report).toEqual([
          { kind: "hard", source: "mailbox", message_kind: "inquiry-notification" },
        ]);
      } finally {
        await firm.close();
        await alert.close();
      }
    });

    it("leaves a message that is not a report unread, and ignores a report with a forged bounce address", async () => {
      // The alarm test's bounce, signed by another app, is in the same mailbox
      // and logged as forged here too: only the lines from now on count.
      const logsBefore = t.logs.length;
      const transport = nodemailer.createTransport({
        host: servers.smtp.host,
        port: servers.smtp.port,
        secure: false,
        ignoreTLS: true,
      });
      const bounceBox = `bounces@${servers.bounceDomain}`;
      const victim = readers[0] ?? "";
      await transport.sendMail({
        from: "A person <someone@example.org>",
        to: bounceBox,
        subject: "A question about your newsletter",
        text: "Hello, is this the right address for questions?",
      });
      // A delivery report that looks real, sent to a bounce address whose signature is made up.
      const forgedTo = `bounces+1.${"0".repeat(20)}@${servers.bounceDomain}`;
      await transport.sendMail({
        from: "Mail Delivery System <MAILER-DAEMON@example.org>",
        to: forgedTo,
        envelope: { from: "", to: [forgedTo] },
        subject: "Undelivered Mail Returned to Sender",
        text: [
          "This is the mail system at host example.org.",
          "",
          `<${victim}>: host mx.readers.test said: 550 5.1.1 <${victim}>: Recipient address rejected: User unknown`,
        ].join("\n"),
        attachments: [
          {
            contentType: "message/delivery-status",
            content: [
              "Reporting-MTA: dns; example.org",
              "",
              `Final-Recipient: rfc822; ${victim}`,
              "Action: failed",
              "Status: 5.1.1",
              "Diagnostic-Code: smtp; 550 5.1.1 User unknown",
              "",
            ].join("\r\n"),
          },
        ],
      });
      transport.close();

      const client = new ImapFlow({
        host: servers.imap.host,
        port: servers.imap.port,
        secure: false,
        auth: { user: servers.imap.user, pass: servers.imap.pass },
        logger: false,
      });
      await client.connect();
      try {
        // Both have been read once the site's log says so; then the mailbox is asked.
        await expect
          .poll(
            () =>
              t.logs.slice(logsBefore).some((line) => line.includes("bounce address is forged")),
            ARRIVAL,
          )
          .toBe(true);
        const lock = await client.getMailboxLock("INBOX");
        try {
          const messages = await client.fetchAll("1:*", { envelope: true, flags: true });
          const question = messages.find(
            (message) => message.envelope?.subject === "A question about your newsletter",
          );
          expect(question, "the ordinary message is still in the mailbox").toBeDefined();
          expect([...(question?.flags ?? [])]).not.toContain("\\Seen");
          expect([...(question?.flags ?? [])]).not.toContain("\\Deleted");
        } finally {
          lock.release();
        }
      } finally {
        await client.logout();
      }
      const victimRows = await db()
        .selectFrom("suppressions")
        .select("id")
        .where("email", "=", victim)
        .execute();
      expect(victimRows).toEqual([]);
    });
  },
);
