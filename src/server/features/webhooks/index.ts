/**
 * Outgoing webhooks: the firm's own tools (a Slack channel, a CRM) told when
 * an inquiry arrives, someone subscribes, confirms or leaves, or an Insight
 * send finishes. Features announce an event inside their write's
 * transaction (`app.webhookEvents.announce`); a worker delivers it, signed
 * per the Standard Webhooks scheme, with retries (ADR 055). Not the mail
 * providers' delivery reports, which come in (features/deliverability).
 * What the rest of the server may use of this feature.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import type { AddressPolicy } from "./addresses.ts";
import webhooksConsole from "./console.ts";
import {
  announceIn,
  deliveryDepth,
  purgeDeliveries,
  type WebhookEvent,
  type WebhookTransaction,
} from "./queue.ts";
import type { WebhooksSettings } from "./server-settings.ts";
import { WebhookWorker } from "./worker.ts";

declare module "fastify" {
  interface FastifyInstance {
    webhookEvents: WebhookEvents;
  }
}

export interface WebhookEvents {
  /**
   * Queues the event's deliveries in the write's own transaction; the worker
   * is woken once it commits. Never fails the write (see announceIn).
   */
  announce(trx: WebhookTransaction, event: WebhookEvent): Promise<void>;
  /** The site's address, which the events' console links are made from. */
  origin: string;
}

export interface WebhooksOptions extends AdminAreaOptions<WebhooksSettings> {
  /** The clock of due times, signatures and the log (epoch ms); tests pass their own. */
  now?: () => number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export default fp(
  async function webhooks(
    app: FastifyInstance,
    { config, database, now = Date.now }: WebhooksOptions,
  ) {
    const addresses: AddressPolicy = {
      allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE,
      production: config.NODE_ENV === "production",
    };
    const worker = new WebhookWorker({
      db: database.db,
      engine: database.engine,
      log: app.log,
      addresses,
      now,
      policy: {
        pollMs: config.WEBHOOK_POLL_MS,
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
        maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
        retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
        retryMaxMs: config.WEBHOOK_RETRY_MAX_MS,
      },
    });
    const wake = () => worker.wake();
    app.decorate("webhookEvents", {
      origin: config.PUBLIC_ORIGIN,
      announce: (trx: WebhookTransaction, event: WebhookEvent) =>
        announceIn(trx, event, {
          at: new Date(now()),
          wake,
          onFailure: (error) =>
            app.log.error(
              { err: error, event: event.type },
              "webhook deliveries could not be queued; the write goes on without them",
            ),
        }),
    });
    await app.register(webhooksConsole, {
      db: database.db,
      addresses,
      origin: config.PUBLIC_ORIGIN,
      now,
      wake,
    });
    app.metrics.gauge({
      name: "site_webhook_deliveries",
      help: "Outgoing webhook deliveries still to be made (pending) or given up on within their keeping (failed).",
      read: async () =>
        (await deliveryDepth(database.db)).map(({ status, count }) => ({
          labels: { status },
          value: count,
        })),
    });
    app.dailyPurge.add({
      what: "webhook deliveries",
      run: (at) =>
        purgeDeliveries(
          database.db,
          new Date(at.getTime() - config.WEBHOOK_DELIVERY_RETENTION_DAYS * DAY_MS),
        ),
    });
    app.addHook("onReady", async () => worker.start());
    app.addHook("onClose", async () => worker.stop());
  },
  { name: "webhooks", dependencies: ["console", "outbox", "daily-purge", "metrics"] },
);

export {
  inquiryReceived,
  newsletterSent,
  subscriberConfirmed,
  subscriberCreated,
  subscriberUnsubscribed,
} from "./events.ts";
export {
  forgetDeliveriesAbout,
  type WebhookEvent,
  type WebhookTransaction,
} from "./queue.ts";
