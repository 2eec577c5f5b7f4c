/**
 * Deliverability: what happens to mail after the site sent it. Reports
 * (bounces and complaints) are recorded, and the addresses they condemn go
 * on the suppression list, which every other feature checks before it
 * mails anyone but the firm. What the rest of the server may use of it.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import type { MailDefaultSettings } from "../mail-settings/index.ts";
import { BounceMailboxReader, mailboxLocation } from "./bounce-mailbox.ts";
import { deliveryWebhooks } from "./provider-events.ts";
import { type OnHardBounce, purgeReports, reportsByKind, softBouncePolicy } from "./record.ts";
import sendingHealthRoutes from "./sending-health-console.ts";
import type { DeliverabilitySettings } from "./server-settings.ts";
import { purgeSetAside } from "./set-aside.ts";
import suppressionsConsole from "./suppressions-console.ts";

export interface DeliverabilityOptions
  extends AdminAreaOptions<DeliverabilitySettings & MailDefaultSettings> {
  /** The server's signing secret: the bounce addresses' tokens. */
  secret: string;
  /** The clock the webhooks' timestamps are judged by (epoch ms); tests pass their own. */
  now?: () => number;
  /** Told of each hard bounce that names a message of ours, however it came. */
  onHardBounce?: OnHardBounce;
}

export default fp(
  async function deliverability(app: FastifyInstance, options: DeliverabilityOptions) {
    startBounceMailbox(app, options);
    purgeOldReports(app, options);
    app.metrics.gauge({
      name: "site_delivery_reports",
      help: "Bounce and complaint reports kept (REPORT_RETENTION_DAYS), by kind: hard, soft, complaint. Grows with each new one; drops at the daily purge.",
      read: async () =>
        (await reportsByKind(options.database.db)).map(({ kind, count }) => ({
          labels: { kind },
          value: count,
        })),
    });
    await app.register(suppressionsConsole, options);
    await app.register(sendingHealthRoutes, options);
    await app.register(deliveryWebhooks, options);
  },
  {
    name: "deliverability",
    dependencies: ["console", "outbox", "mail-settings", "metrics", "daily-purge"],
  },
);

/** Removes reports, and mail set aside, past REPORT_RETENTION_DAYS in the daily purge. */
function purgeOldReports(app: FastifyInstance, { config, database }: DeliverabilityOptions) {
  app.dailyPurge.add({
    what: "delivery reports",
    run: (now) => purgeReports(database.db, config.REPORT_RETENTION_DAYS, now),
  });
  app.dailyPurge.add({
    what: "mail set aside from the bounce mailbox",
    run: (now) => purgeSetAside(database.db, config.REPORT_RETENTION_DAYS, now),
  });
}

/** Reads the bounce mailbox while the server runs, when one is configured. */
function startBounceMailbox(
  app: FastifyInstance,
  { config, database, secret, onHardBounce }: DeliverabilityOptions,
) {
  if (!config.BOUNCE_IMAP_URL || !config.BOUNCE_ADDRESS) return;
  const reader = new BounceMailboxReader({
    database,
    log: app.log,
    location: mailboxLocation(config.BOUNCE_IMAP_URL),
    signing: { bounceAddress: config.BOUNCE_ADDRESS, secret },
    policy: softBouncePolicy(config),
    pollMs: config.BOUNCE_POLL_MS,
    ...(onHardBounce ? { onHardBounce } : {}),
  });
  app.addHook("onReady", async () => reader.start());
  app.addHook("onClose", () => reader.stop());
}

export { dkimPublicKey } from "./domain-checks.ts";
export {
  type NewReport,
  purgeReports,
  type Recorded,
  recordReport,
  type SoftBouncePolicy,
  softBouncePolicy,
} from "./record.ts";
export { recordRefusals, recordSoftBounces } from "./refusals.ts";
export { type SendHealth, type SendWindow, sendHealth } from "./send-guard-figures.ts";
export { issueDeliveryFigures } from "./sending-health-figures.ts";
export {
  forgetAddress,
  isSuppressed,
  liftSuppression,
  notSuppressed,
  suppressedAmong,
  suppressedSubscription,
} from "./suppressions.ts";
export { UNVERIFIED } from "./trace.ts";
