/**
 * Leaving the Insight list. The page /unsubscribe asks the visitor to confirm
 * and calls the API routes here; mail clients use the RFC 8058 one-click POST,
 * which carries no cookie and so is exempt from the XSRF check: the signed
 * token in its URL is the proof.
 */
import multipart from "@fastify/multipart";
import type { FastifyError, FastifyInstance, FastifyRequest } from "fastify";
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
import { findSubscription, type Subscription } from "./queries.ts";
import { tokenMatches, tokenSubscriptionId } from "./unsubscribe-token.ts";
import { endSubscription } from "./writes.ts";

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
  const subscriptionFor = tokenLookup(app, options);
  const path = serverPath(API_PATHS.unsubscribe);
  const response = { 200: unsubscribeStateSchema };

  app.get(path, { schema: { querystring: unsubscribeTokenSchema, response } }, async (request) => {
    const subscription = await subscriptionFor(request.query.token);
    return describe(subscription, subscription.unsubscribedAt ? "unsubscribed" : "subscribed");
  });

  app.post(path, { schema: { body: unsubscribeTokenSchema, response } }, async (request) => {
    const subscription = await subscriptionFor(request.body.token);
    await endSubscription(app, subscription.id, CONSENT_VIA.link);
    return describe(subscription, "unsubscribed");
  });
};

/**
 * A one-click body holds one short field, perhaps with a few a client adds of
 * its own, and never a file. The server's body limit does not reach a
 * multipart stream: these bound what the server keeps of one.
 */
const MULTIPART_LIMITS = { files: 0, fields: 4, parts: 4, fieldNameSize: 64, fieldSize: 256 };

export const UNREADABLE_MULTIPART_MESSAGE = "The request body is not a readable multipart form.";

/**
 * Reads a multipart body's fields into request.body, in memory, as the form
 * parser does for a urlencoded one. The parser's own errors for a body cut or written
 * wrong carry no status and would answer 500: the sender's fault, said as such.
 */
function readMultipartFields(app: FastifyInstance) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!request.isMultipart()) return;
    const fields: Record<string, unknown> = {};
    try {
      for await (const part of request.parts()) {
        if (part.type === "field") fields[part.fieldname] = part.value;
      }
    } catch (error) {
      const { statusCode } = error as FastifyError;
      throw statusCode !== undefined && statusCode < 500
        ? error
        : app.httpErrors.badRequest(UNREADABLE_MULTIPART_MESSAGE);
    }
    request.body = fields;
  };
}

/**
 * The bodies mail programs send with the one-click POST: the field
 * List-Unsubscribe=One-Click as a urlencoded form or as multipart (curl -F
 * and some clients), or no body at all. The route asks nothing of the body,
 * since the token alone decides, but reads it whole.
 */
async function acceptOneClickBodies(app: FastifyInstance): Promise<void> {
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  await app.register(multipart, { limits: MULTIPART_LIMITS });
  app.addHook("preValidation", readMultipartFields(app));
}

/**
 * POST /unsubscribe?token=… (RFC 8058). A repeat answers alike: unsubscribe()
 * records the end of a subscription only once.
 */
export const oneClickUnsubscribe: FastifyPluginAsyncZod<UnsubscribeOptions> = async (
  app,
  options,
) => {
  const subscriptionFor = tokenLookup(app, options);
  await acceptOneClickBodies(app);
  app.post(
    UNSUBSCRIBE_PATH,
    {
      schema: { querystring: unsubscribeTokenSchema, response: { 200: oneClickAnswerSchema } },
      config: { xsrf: false },
    },
    async (request) => {
      const subscription = await subscriptionFor(request.query.token);
      await endSubscription(app, subscription.id, CONSENT_VIA.oneClick);
      return { state: "unsubscribed" as const };
    },
  );
};
