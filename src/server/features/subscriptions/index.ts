/**
 * Subscriptions to Insight: subscribing, confirming (double opt-in),
 * unsubscribing (page, API and one-click), who the audience is, the
 * console's subscribers and the exports. What the rest of the server may use
 * of this feature.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { runPeriodically } from "../../platform/ops/periodic.ts";
import { currentMailSettings, type MailDefaultSettings } from "../mail-settings/index.ts";
import confirmSubscription from "./confirm-routes.ts";
import subscribersRoutes from "./console.ts";
import importRoutes from "./import-console.ts";
import { SubscriptionMail } from "./mail.tsx";
import { forgetPastTurns } from "./mail-cooldown.ts";
import type { SubscriptionsSettings } from "./server-settings.ts";
import { oneClickUnsubscribe, unsubscribeApi } from "./unsubscribe-routes.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Queues a subscription's mail inside its write's transaction. */
    subscriptionMail: SubscriptionMail;
  }
}

export interface SubscriptionsOptions
  extends AdminAreaOptions<SubscriptionsSettings & MailDefaultSettings> {
  /** The server's signing secret: unsubscribe and confirmation links. */
  secret: string;
  /** The clock of the mail cooldown (epoch ms); the real one unless a test passes its own. */
  now?: () => number;
}

const HOUR_MS = 60 * 60 * 1000;

export default fp(
  async function subscriptions(
    app: FastifyInstance,
    { config, database, secret, now = Date.now }: SubscriptionsOptions,
  ) {
    const cooldown = { minutes: config.SUBSCRIBE_MAIL_COOLDOWN_MINUTES, now };
    app.decorate(
      "subscriptionMail",
      new SubscriptionMail(
        {
          mailSettings: (trx) => currentMailSettings(trx, config),
          publicOrigin: config.PUBLIC_ORIGIN,
          signingSecret: secret,
          cooldown,
        },
        app.log,
      ),
    );
    runPeriodically(app, {
      what: "forgetting past mail cooldowns",
      everyMs: HOUR_MS,
      run: () => forgetPastTurns(database.db, cooldown),
    });
    await app.register(confirmSubscription, { config, database, secret });
    await app.register(unsubscribeApi, { database, secret });
    await app.register(oneClickUnsubscribe, { database, secret });
    await app.register(subscribersRoutes, { config, database });
    await app.register(importRoutes, { config, database, now });
  },
  {
    name: "subscriptions",
    dependencies: ["console", "outbox", "mail-settings", "webhooks", "content"],
  },
);

export { activeSubscribers } from "./exports.ts";
export { listId, unsubscribeHeaders } from "./mail.tsx";
export { namedReaders, namesByAddress } from "./merge-values.ts";
export { findSubscription, type Subscription } from "./queries.ts";
export { countRecipients, onlyRecipients } from "./segments.ts";
export { eraseSubscriber } from "./subscribers.ts";
export { listTopics } from "./topics.ts";
export {
  INVALID_LINK_MESSAGE,
  maskEmail,
  UNREADABLE_MULTIPART_MESSAGE,
} from "./unsubscribe-routes.ts";
export { unsubscribeUrl } from "./unsubscribe-token.ts";
export {
  ALREADY_SUBSCRIBED_MESSAGE,
  CONFIRMATION_SENT_MESSAGE,
  confirmByLink,
  SUBSCRIBED_MESSAGE,
  storeSubscription,
  type Writer as SubscriptionWriter,
} from "./writes.ts";
