/**
 * The mail concern: the templates' queue, the transport (SMTP, or a mailbox
 * folder without SMTP_URL) and the outbox sender, which runs while the
 * server does. Routes write through `app.withOutbox`, which commits a row and
 * its mail together and wakes the sender after the commit.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../config.ts";
import type { DatabaseHandle } from "../db/connection.ts";
import { inOutboxTransaction, type OutboxTransaction } from "../db/outbox.ts";
import { newsletterComposer } from "../newsletter/composer.ts";
import { MailQueue } from "./mail-queue.ts";
import { OutboxSender } from "./outbox-sender.ts";
import { mailboxMailer, smtpMailer } from "./transport.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The e-mails visitors' actions cause; queue them inside withOutbox. */
    mail: MailQueue;
    /** Runs a write and the mail it queues in one transaction; the sender wakes after the commit. */
    withOutbox<T>(work: (trx: OutboxTransaction) => Promise<T>): Promise<T>;
  }
}

export interface MailOptions {
  config: Config;
  database: DatabaseHandle;
  signingSecret: string;
}

export default fp(
  async function mail(app: FastifyInstance, { config, database, signingSecret }: MailOptions) {
    const mailer = config.SMTP_URL
      ? smtpMailer(config.SMTP_URL)
      : mailboxMailer(config.MAILBOX_DIR, app.log);
    const sender = new OutboxSender({
      db: database.db,
      engine: database.engine,
      mailer,
      log: app.log,
      policy: {
        pollMs: config.OUTBOX_POLL_MS,
        maxAttempts: config.OUTBOX_MAX_ATTEMPTS,
        retryBaseMs: config.OUTBOX_RETRY_BASE_MS,
        retryMaxMs: config.OUTBOX_RETRY_MAX_MS,
        leaseMs: config.OUTBOX_LEASE_MS,
      },
      composeNewsletter: newsletterComposer({
        db: database.db,
        from: config.MAIL_FROM,
        publicOrigin: config.PUBLIC_ORIGIN,
        signingSecret,
      }),
    });

    app.decorate(
      "mail",
      new MailQueue({
        from: config.MAIL_FROM,
        inquiryTo: config.INQUIRY_TO,
        acknowledgeInquiries: config.INQUIRY_ACK,
        publicOrigin: config.PUBLIC_ORIGIN,
        signingSecret,
      }),
    );
    app.decorate("withOutbox", <T>(work: (trx: OutboxTransaction) => Promise<T>) =>
      inOutboxTransaction(database.db, work, () => sender.wake()),
    );

    app.addHook("onReady", async () => {
      sender.start();
      app.log.info({ via: mailer.description }, "outbox sender started");
    });
    app.addHook("onClose", async () => {
      await sender.stop();
      mailer.close();
    });
  },
  { name: "mail" },
);
