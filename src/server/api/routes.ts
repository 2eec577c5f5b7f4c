/**
 * The API of spec §7. Every route declares its Zod schemas (request and each
 * answer); the handlers only translate between HTTP and the queries in db/.
 * A write and the e-mail it causes are committed together (withOutbox).
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { API_PATHS, serverPath } from "../../shared/api-paths.ts";
import {
  caseStudySchema,
  contentItemSchema,
  inquiryReceivedSchema,
  inquirySchema,
  itemsQuerySchema,
  messageSchema,
  subscribeQuerySchema,
  teamMemberSchema,
  xsrfAnswerSchema,
} from "../../shared/schemas.ts";
import { normalizeEmail } from "../../shared/subscription.ts";
import { insertInquiry } from "../db/inquiries.ts";
import { subscribe } from "../db/subscriptions.ts";

export const SUBSCRIBED_MESSAGE = "Subscribed to Insight.";
export const ALREADY_SUBSCRIBED_MESSAGE = "This e-mail address is already subscribed to Insight.";

export interface ApiOptions {
  /** Limit for the routes that write, per client address and minute. */
  writesPerMinute: number;
}

const api: FastifyPluginAsyncZod<ApiOptions> = async (app, { writesPerMinute }) => {
  const writeLimit = { rateLimit: { max: writesPerMinute, timeWindow: "1 minute" } };

  app.get(
    serverPath(API_PATHS.xsrf),
    { schema: { response: { 200: xsrfAnswerSchema } } },
    async (request) => ({ token: request.xsrfToken }),
  );

  app.post(
    serverPath(API_PATHS.subscribe),
    {
      schema: {
        querystring: subscribeQuerySchema,
        response: { 201: messageSchema, 409: messageSchema },
      },
      config: writeLimit,
    },
    async (request, reply) => {
      const email = normalizeEmail(request.query.emailId);
      const subscription = await app.withOutbox(async (trx) => {
        const created = await subscribe(trx, email, "website");
        if (created) await app.mail.welcome(trx, created);
        return created;
      });
      if (!subscription) throw app.httpErrors.conflict(ALREADY_SUBSCRIBED_MESSAGE);
      return reply.code(201).send({ message: SUBSCRIBED_MESSAGE });
    },
  );

  app.get(
    serverPath(API_PATHS.teams),
    { schema: { response: { 200: teamMemberSchema.array() } } },
    async () => app.content.team(),
  );

  app.get(
    serverPath(API_PATHS.items),
    { schema: { querystring: itemsQuerySchema, response: { 200: contentItemSchema.array() } } },
    async (request) => app.content.items(request.query.category),
  );

  app.get(
    serverPath(API_PATHS.caseStudies),
    { schema: { response: { 200: caseStudySchema.array() } } },
    async () => app.content.caseStudies(),
  );

  app.post(
    serverPath(API_PATHS.sendComment),
    {
      schema: { body: inquirySchema, response: { 200: inquiryReceivedSchema } },
      config: writeLimit,
    },
    async (request) => {
      const id = await app.withOutbox(async (trx) => {
        const inserted = await insertInquiry(trx, request.body);
        await app.mail.inquiry(trx, request.body);
        return inserted;
      });
      return { id };
    },
  );
};

export default api;
