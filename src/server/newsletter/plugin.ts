/**
 * The newsletter concern: the dispatcher that starts scheduled sends and
 * queues their copies in the outbox, running while the server does. The mail
 * plugin's sender delivers the copies (composer.ts); the console's routes
 * (admin/newsletter.ts) write the campaigns and wake the dispatcher.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../config.ts";
import type { DatabaseHandle } from "../db/connection.ts";
import { newMessageId } from "../mail/message.ts";
import { CampaignDispatcher } from "./dispatcher.ts";

declare module "fastify" {
  interface FastifyInstance {
    newsletter: {
      /** Starts a send asked for now without waiting for the next poll. */
      wake(): void;
      /** Tells every instance the archive changed (a send began or was cancelled). */
      archiveChanged(): Promise<void>;
    };
  }
}

export interface NewsletterOptions {
  config: Config;
  database: DatabaseHandle;
}

export default fp(
  async function newsletter(app: FastifyInstance, { config, database }: NewsletterOptions) {
    // The archive is content: an empty edit announces the change to every
    // instance, whose caches and rendered pages then drop it.
    const archiveChanged = () => app.content.edit(async () => undefined);
    const dispatcher = new CampaignDispatcher({
      db: database.db,
      withOutbox: app.withOutbox,
      log: app.log,
      pollMs: config.OUTBOX_POLL_MS,
      leaseMs: config.OUTBOX_LEASE_MS,
      messageId: () => newMessageId(config.MAIL_FROM),
      onArchiveChange: archiveChanged,
    });
    app.decorate("newsletter", { wake: () => dispatcher.wake(), archiveChanged });
    app.addHook("onReady", async () => dispatcher.start());
    app.addHook("onClose", async () => dispatcher.stop());
  },
  { name: "newsletter", dependencies: ["mail", "content"] },
);
