/**
 * The outbox: the transport (SMTP, or a mailbox folder without SMTP_URL) and
 * the sender, which runs while the server does. Routes write through
 * `app.withOutbox`, which commits a row and its mail together and wakes the
 * sender after the commit. Each feature composes its own mail; a newsletter
 * copy is composed when it is sent, by the composer the app hands in. The
 * bodies of mail sent OUTBOX_SENT_RETENTION_DAYS ago go in the daily purge;
 * an erased person's copies in the mailbox folder go with them.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { DatabaseHandle } from "../db/connection.ts";
import type { PlatformConfig } from "../server-settings.ts";
import { bounceAddressFor } from "./bounce-address.ts";
import { readDkimKey } from "./dkim.ts";
import { type PersonsMail, removeMailboxCopiesOf } from "./mailbox-copies.ts";
import {
  inOutboxTransaction,
  type OutboxTransaction,
  oldestPendingAgeSeconds,
  outboxDepth,
} from "./queue.ts";
import { removeSentBodies } from "./retention.ts";
import {
  type ComposeNewsletter,
  type OnGaveUp,
  type OnRefused,
  type OnSoftBounce,
  OutboxSender,
} from "./sender.ts";
import { mailboxMailer, smtpMailer } from "./transport.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Runs a write and the mail it queues in one transaction; the sender wakes after the commit. */
    withOutbox<T>(work: (trx: OutboxTransaction) => Promise<T>): Promise<T>;
    /**
     * Deletes the mailbox folder's messages of a person erased; answers how
     * many went. The folder is looked at with SMTP set too: it keeps what was
     * written before SMTP was.
     */
    removeMailboxCopies(mail: PersonsMail): Promise<number>;
    /**
     * The folder every message is only written to, as an .eml file, when no
     * mail server is set (SMTP_URL); null when mail is sent.
     */
    readonly mailFolder: string | null;
  }
}

export interface OutboxOptions {
  config: PlatformConfig;
  database: DatabaseHandle;
  /** The server's signing secret: the bounce addresses' tokens. */
  secret: string;
  composeNewsletter: ComposeNewsletter;
  onRefused?: OnRefused;
  onSoftBounce?: OnSoftBounce;
  onGaveUp?: OnGaveUp;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function bounceAddresses(base: string, secret: string) {
  return (outboxId: number) => bounceAddressFor(base, secret, outboxId);
}

export default fp(
  async function outbox(
    app: FastifyInstance,
    {
      config,
      database,
      secret,
      composeNewsletter,
      onRefused,
      onSoftBounce,
      onGaveUp,
    }: OutboxOptions,
  ) {
    const dkim = readDkimKey(config);
    const mailer = config.SMTP_URL
      ? smtpMailer(config.SMTP_URL, dkim)
      : mailboxMailer(config.MAILBOX_DIR, app.log, dkim);
    app.decorate("mailFolder", config.SMTP_URL ? null : config.MAILBOX_DIR);
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
      pacing: {
        ...(config.DOMAIN_RATE_PER_SECOND ? { ratePerSecond: config.DOMAIN_RATE_PER_SECOND } : {}),
        rates: config.DOMAIN_RATES,
        backoffBaseMs: config.DOMAIN_BACKOFF_BASE_MS,
        backoffMaxMs: config.DOMAIN_BACKOFF_MAX_MS,
      },
      composeNewsletter,
      ...(config.BOUNCE_ADDRESS
        ? { bounceAddress: bounceAddresses(config.BOUNCE_ADDRESS, secret) }
        : {}),
      ...(onRefused ? { onRefused } : {}),
      ...(onSoftBounce ? { onSoftBounce } : {}),
      ...(onGaveUp ? { onGaveUp } : {}),
    });

    app.decorate("withOutbox", <T>(work: (trx: OutboxTransaction) => Promise<T>) =>
      inOutboxTransaction(database.db, work, () => sender.wake()),
    );
    app.decorate("removeMailboxCopies", (mail: PersonsMail) =>
      removeMailboxCopiesOf(config.MAILBOX_DIR, mail),
    );

    app.metrics.gauge({
      name: "site_outbox_messages",
      help: "Messages in the outbox still to be sent (pending, held ones included) or given up on (failed), by kind.",
      read: async () =>
        (await outboxDepth(database.db)).map(({ kind, status, count }) => ({
          labels: { kind, status },
          value: count,
        })),
    });
    app.metrics.gauge({
      name: "site_outbox_oldest_pending_age_seconds",
      help: "How long the oldest message still to be sent has waited (a paused send's copies left out).",
      read: async () => [{ value: await oldestPendingAgeSeconds(database.db, new Date()) }],
    });
    app.dailyPurge.add({
      what: "sent mail bodies",
      run: (now) => removeSentBodies(database.db, config.OUTBOX_SENT_RETENTION_DAYS * DAY_MS, now),
    });

    app.addHook("onReady", async () => {
      sender.start();
      app.log.info({ via: mailer.description }, "outbox sender started");
    });
    app.addHook("onClose", async () => {
      await sender.stop();
      mailer.close();
    });
  },
  { name: "outbox", dependencies: ["metrics", "daily-purge"] },
);
