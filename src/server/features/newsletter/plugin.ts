/**
 * The newsletter: the dispatcher that starts scheduled sends and queues
 * their copies in the outbox, running while the server does, and the
 * console's routes (console.ts), which write the issues and wake the
 * dispatcher, and those of a sent issue's archive page (archive-console.ts). The outbox's sender delivers the copies, composed by
 * composer.ts.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Kysely } from "kysely";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import type { Database } from "../../platform/db/schema.ts";
import { currentMailSettings, type MailDefaultSettings } from "../mail-settings/index.ts";
import { newsletterSent } from "../webhooks/index.ts";
import archiveRoutes from "./archive-console.ts";
import newsletterRoutes from "./console.ts";
import { IssueDispatcher } from "./dispatcher.ts";
import linkClickRoutes from "./link-clicks.ts";
import { sendFigures } from "./send-figures.ts";
import { guardSends, sendGuardPolicy } from "./send-guard.tsx";
import type { NewsletterSettings } from "./server-settings.ts";

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

export default fp(
  async function newsletter(
    app: FastifyInstance,
    {
      config,
      database,
      now = Date.now,
    }: AdminAreaOptions<NewsletterSettings & MailDefaultSettings> & {
      /** The clock a click's day is read from (epoch ms); tests pass their own. */
      now?: () => number;
    },
  ) {
    // The archive is content: an empty edit announces the change to every
    // instance, whose caches and rendered pages then drop it.
    const archiveChanged = () => app.content.edit(async () => undefined);
    // The sender in force at each batch and each pause, whichever instance changed it.
    const from = async (db: Kysely<Database>) => (await currentMailSettings(db, config)).from;
    const dispatcher = new IssueDispatcher({
      db: database.db,
      withOutbox: app.withOutbox,
      log: app.log,
      pollMs: config.OUTBOX_POLL_MS,
      leaseMs: config.OUTBOX_LEASE_MS,
      from,
      onArchiveChange: archiveChanged,
      onSendFinished: (trx, issue) =>
        app.webhookEvents.announce(trx, newsletterSent(app.webhookEvents.origin, issue)),
      guard: () =>
        guardSends(database.db, app.withOutbox, sendGuardPolicy(config), {
          from,
          publicOrigin: config.PUBLIC_ORIGIN,
        }),
    });
    app.decorate("newsletter", { wake: () => dispatcher.wake(), archiveChanged });
    app.metrics.gauge({
      name: "site_newsletter_send_copies",
      help: "Each send under way: its copies queued so far (state=total) and how many are sent, failed or still pending.",
      read: async () =>
        (await sendFigures(database.db)).map(({ issueId, issueStatus, state, count }) => ({
          labels: { issue_id: issueId, issue_status: issueStatus, state },
          value: count,
        })),
    });
    app.addHook("onReady", async () => dispatcher.start());
    app.addHook("onClose", async () => dispatcher.stop());
    await app.register(newsletterRoutes, { config, database });
    await app.register(archiveRoutes, { config, database });
    await app.register(linkClickRoutes, { db: database.db, now });
  },
  {
    name: "newsletter",
    dependencies: [
      "outbox",
      "content",
      "console",
      "subscriptions",
      "mail-settings",
      "metrics",
      "webhooks",
    ],
  },
);
