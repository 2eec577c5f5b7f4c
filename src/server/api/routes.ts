/**
 * The API of spec §7. Every route declares its Zod schemas (request and each
 * answer); the handlers only translate between HTTP and the queries in db/.
 * A write and the e-mail it causes are committed together (withOutbox), by
 * the functions the forms posted without JavaScript use too (forms/writes.ts).
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
import {
  ALREADY_SUBSCRIBED_MESSAGE,
  SUBSCRIBED_MESSAGE,
  storeInquiry,
  storeSubscription,
} from "../forms/writes.ts";

export { ALREADY_SUBSCRIBED_MESSAGE, SUBSCRIBED_MESSAGE };

/** The write limit of the API, which the forms posted without JavaScript share. */
export function writeLimit(writesPerMinute: number) {
  return { rateLimit: { max: writesPerMinute, timeWindow: "1 minute" } };
}

export interface ApiOptions {
  /** Limit for the routes that write, per client address and minute. */
  writesPerMinute: number;
}

const api: FastifyPluginAsyncZod<ApiOptions> = async (app, { writesPerMinute }) => {
  const limit = writeLimit(writesPerMinute);

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
      config: limit,
    },
    async (request, reply) => {
      const subscription = await storeSubscription(app, request.query.emailId);
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
      config: limit,
    },
    async (request) => ({ id: await storeInquiry(app, request.body) }),
  );
};

export default api;
