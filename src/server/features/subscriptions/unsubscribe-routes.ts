/**
 * Leaving the Insight list. The page /unsubscribe asks the visitor to confirm
 * and calls the API routes here; mail clients use the RFC 8058 one-click POST,
 * which carries no cookie and so is exempt from the XSRF check: the signed
 * token in its URL is the proof.
 */
import type { FastifyInstance } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { CONSENT_VIA } from "../../../shared/admin/subscribers.ts";
import { API_PATHS, serverPath } from "../../../shared/api-paths.ts";
import { UNSUBSCRIBE_PATH } from "../../../shared/routes.ts";
import {
  oneClickAnswerSchema,
  unsubscribeStateSchema,
  unsubscribeTokenSchema,
} from "../../../shared/schemas.ts";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import { findSubscription, type Subscription, unsubscribe } from "./queries.ts";
import { tokenMatches, tokenSubscriptionId } from "./unsubscribe-token.ts";

export const INVALID_LINK_MESSAGE =
  "This unsubscribe link is not valid. Please use the link from your most recent Insight e-mail.";

interface UnsubscribeOptions {
  database: DatabaseHandle;
  secret: string;
}

/** Shows most of an address, enough for its owner to recognise it. */
export function maskEmail(email: string): string {
  const [local = "", domain = ""] = email.split("@");
  return `${local.slice(0, 2)}${"•".repeat(Math.max(1, local.length - 2))}@${domain}`;
}

/**
 * Finds the subscription a token was signed for. A forged or outdated token,
 * or one naming an id no subscription can have, fails the request with 404
 * and the message above.
 */
function tokenLookup(app: FastifyInstance, { database, secret }: UnsubscribeOptions) {
  return async (token: string): Promise<Subscription> => {
    const id = tokenSubscriptionId(token);
    const subscription = id === null ? undefined : await findSubscription(database.db, id);
    if (subscription && tokenMatches(secret, token, subscription)) return subscription;
    throw app.httpErrors.notFound(INVALID_LINK_MESSAGE);
  };
}

const describe = (subscription: Subscription, state: "subscribed" | "unsubscribed") => ({
  state,
  email: maskEmail(subscription.email),
});

/** The page's calls: what a link is for, and the confirmed unsubscribe. */
export const unsubscribeApi: FastifyPluginAsyncZod<UnsubscribeOptions> = async (app, options) => {
  const { db } = options.database;
  const subscriptionFor = tokenLookup(app, options);
  const path = serverPath(API_PATHS.unsubscribe);
  const response = { 200: unsubscribeStateSchema };

  app.get(path, { schema: { querystring: unsubscribeTokenSchema, response } }, async (request) => {
    const subscription = await subscriptionFor(request.query.token);
    return describe(subscription, subscription.unsubscribedAt ? "unsubscribed" : "subscribed");
  });

  app.post(path, { schema: { body: unsubscribeTokenSchema, response } }, async (request) => {
    const subscription = await subscriptionFor(request.body.token);
    await unsubscribe(db, subscription.id, CONSENT_VIA.link);
    return describe(subscription, "unsubscribed");
  });
};

/** POST /unsubscribe?token=… with body List-Unsubscribe=One-Click (RFC 8058). */
export const oneClickUnsubscribe: FastifyPluginAsyncZod<UnsubscribeOptions> = async (
  app,
  options,
) => {
  const { db } = options.database;
  const subscriptionFor = tokenLookup(app, options);
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.post(
    UNSUBSCRIBE_PATH,
    {
      schema: { querystring: unsubscribeTokenSchema, response: { 200: oneClickAnswerSchema } },
      config: { xsrf: false },
    },
    async (request) => {
      const subscription = await subscriptionFor(request.query.token);
      await unsubscribe(db, subscription.id, CONSENT_VIA.oneClick);
      return { state: "unsubscribed" as const };
    },
  );
};
