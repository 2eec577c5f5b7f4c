/**
 * Leaving the Insight list. The page /unsubscribe asks the visitor to confirm
 * and calls the API routes here; mail clients use the RFC 8058 one-click POST,
 * which carries no cookie and so is exempt from the XSRF check: the signed
 * token in its URL is the proof.
 */
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { unsubscribeTokenSchema } from "../../shared/schemas.ts";
import type { DatabaseHandle } from "../db/connection.ts";
import { findSubscription, type Subscription, unsubscribe } from "../db/subscriptions.ts";
import { tokenMatches, tokenSubscriptionId } from "../security/unsubscribe-token.ts";

export const INVALID_LINK_MESSAGE =
  "This unsubscribe link is not valid. Please use the link from your most recent Insight e-mail.";

type TokenQuery = { Querystring: z.infer<typeof unsubscribeTokenSchema> };
type TokenBody = { Body: z.infer<typeof unsubscribeTokenSchema> };

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
 * Finds the subscription a token was signed for. A forged or outdated token
 * fails the request with 404 and the message above.
 */
function tokenLookup({ database, secret }: UnsubscribeOptions) {
  return async (token: string): Promise<Subscription> => {
    const id = tokenSubscriptionId(token);
    const subscription = id === null ? undefined : await findSubscription(database.db, id);
    if (subscription && tokenMatches(secret, token, subscription)) return subscription;
    throw Object.assign(new Error(INVALID_LINK_MESSAGE), { statusCode: 404 });
  };
}

export async function unsubscribeApi(app: FastifyInstance, options: UnsubscribeOptions) {
  const { db } = options.database;
  const subscriptionFor = tokenLookup(options);

  const describe = (subscription: Subscription, state: "subscribed" | "unsubscribed") => ({
    state,
    email: maskEmail(subscription.email),
  });

  app.get<TokenQuery>(
    "/unsubscribe",
    { schema: { querystring: unsubscribeTokenSchema } },
    async (request) => {
      const subscription = await subscriptionFor(request.query.token);
      return describe(subscription, subscription.unsubscribedAt ? "unsubscribed" : "subscribed");
    },
  );

  app.post<TokenBody>(
    "/unsubscribe",
    { schema: { body: unsubscribeTokenSchema } },
    async (request) => {
      const subscription = await subscriptionFor(request.body.token);
      await unsubscribe(db, subscription.id, "unsubscribe page");
      return describe(subscription, "unsubscribed");
    },
  );
}

/** POST /unsubscribe?token=… with body List-Unsubscribe=One-Click (RFC 8058). */
export async function oneClickUnsubscribe(app: FastifyInstance, options: UnsubscribeOptions) {
  const { db } = options.database;
  const subscriptionFor = tokenLookup(options);
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.post<TokenQuery>(
    "/unsubscribe",
    { schema: { querystring: unsubscribeTokenSchema }, config: { xsrf: false } },
    async (request) => {
      const subscription = await subscriptionFor(request.query.token);
      await unsubscribe(db, subscription.id, "one-click");
      return { state: "unsubscribed" };
    },
  );
}
