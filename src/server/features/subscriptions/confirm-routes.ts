/**
 * Double opt-in for Insight (the console's mail settings, else
 * NEWSLETTER_DOUBLE_OPT_IN; off by default). This
 * plugin tells the subscribe writes how new subscribers join
 * (app.newsletterSignup, read at request time by the API and the forms,
 * which are registered before it), answers the API calls about a
 * confirmation link, and purges the subscriptions that waited too long for
 * their confirmation. The page the link opens posts its button to itself
 * (features/pages/form-posts.ts); a GET never confirms, since mail scanners open links.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Kysely } from "kysely";
import { API_PATHS, serverPath } from "../../../shared/api-paths.ts";
import { confirmationStateSchema, confirmTokenSchema } from "../../../shared/schemas.ts";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import type { Database } from "../../platform/db/schema.ts";
import { runPeriodically } from "../../platform/ops/periodic.ts";
import type { PlatformConfig } from "../../platform/server-settings.ts";
import { currentMailSettings, type MailDefaultSettings } from "../mail-settings/index.ts";
import { purgeUnconfirmed } from "./queries.ts";
import type { SubscriptionsSettings } from "./server-settings.ts";
import { maskEmail } from "./unsubscribe-routes.ts";
import {
  type ConfirmationLink,
  confirmationLapsedBefore,
  confirmationLink,
  confirmByLink,
} from "./writes.ts";

export const INVALID_CONFIRM_LINK_MESSAGE =
  "This confirmation link is not valid. Please use the link in your most recent confirmation e-mail, or subscribe again.";
export const EXPIRED_CONFIRM_LINK_MESSAGE =
  "This confirmation link has expired. Please subscribe again, and confirm with the link in the new e-mail.";

declare module "fastify" {
  interface FastifyInstance {
    /** Where a confirmation link stands, confirming nothing: opening its page must not confirm. */
    confirmationLinkState(token: string): Promise<ConfirmationLink["state"]>;
  }
}

/** How often each instance purges; an expired link is refused before its row is purged anyway. */
export const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export interface ConfirmSubscriptionOptions {
  config: PlatformConfig & SubscriptionsSettings & MailDefaultSettings;
  database: DatabaseHandle;
  /** The server's signing secret (the unsubscribe links' secret). */
  secret: string;
}

/** The API's answer for a link: where it stands, or its refusal as an error (404, 410). */
function answerFor(app: FastifyInstance, link: ConfirmationLink) {
  if (link.state === "invalid") throw app.httpErrors.notFound(INVALID_CONFIRM_LINK_MESSAGE);
  if (link.state === "expired") throw app.httpErrors.gone(EXPIRED_CONFIRM_LINK_MESSAGE);
  return { state: link.state, email: maskEmail(link.subscription.email) };
}

const confirmationApi: FastifyPluginAsyncZod<{ database: DatabaseHandle }> = async (
  app,
  { database },
) => {
  const path = serverPath(API_PATHS.confirmSubscription);
  const response = { 200: confirmationStateSchema };

  app.get(path, { schema: { querystring: confirmTokenSchema, response } }, async (request) =>
    answerFor(app, await confirmationLink(database.db, app.newsletterSignup, request.query.token)),
  );

  app.post(path, { schema: { body: confirmTokenSchema, response } }, async (request) =>
    answerFor(app, await confirmByLink(app, request.body.token)),
  );
};

/**
 * Every instance purges on start and then hourly: each purge is one DELETE
 * and one UPDATE that re-check their rows, so instances purging at once
 * neither clash nor count a row twice.
 */
function purgeLapsedSubscriptions(app: FastifyInstance, database: DatabaseHandle) {
  runPeriodically(app, {
    what: "purging unconfirmed subscriptions",
    everyMs: PURGE_INTERVAL_MS,
    run: async () => {
      const lapsedBefore = confirmationLapsedBefore(app.newsletterSignup.confirmHours);
      const purged = await purgeUnconfirmed(database.db, lapsedBefore);
      if (purged.deleted + purged.lapsed > 0) {
        app.log.info(purged, "purged subscriptions that were never confirmed");
      }
    },
  });
}

export default fp(
  async function confirmSubscription(
    app: FastifyInstance,
    { config, database, secret }: ConfirmSubscriptionOptions,
  ) {
    const doubleOptIn = async (db: Kysely<Database>) =>
      (await currentMailSettings(db, config)).doubleOptIn;
    app.decorate("newsletterSignup", {
      doubleOptIn,
      doubleOptInNow: () => doubleOptIn(database.db),
      confirmHours: config.NEWSLETTER_CONFIRM_HOURS,
      secret,
    });
    app.decorate("confirmationLinkState", async (token: string) => {
      const link = await confirmationLink(database.db, app.newsletterSignup, token);
      return link.state;
    });
    await app.register(confirmationApi, { database });
    purgeLapsedSubscriptions(app, database);
  },
  { name: "confirm-subscription", dependencies: ["outbox", "mail-settings"] },
);
