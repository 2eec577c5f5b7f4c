/**
 * The public API (/api/v1) the pages call. Every route declares its Zod schemas (request and each
 * answer); the handlers only translate between HTTP and the queries in db/.
 * A write and the e-mail it causes are committed together (withOutbox), by
 * the functions the forms posted without JavaScript use too (each feature's writes.ts).
 */
import { randomInt } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { z } from "zod";
import { CONSENT_VIA } from "../../../shared/admin/subscribers.ts";
import { API_PATHS, serverPath } from "../../../shared/api-paths.ts";
import {
  caseStudySchema,
  contentItemSchema,
  fieldRefusalSchema,
  inquiryReceivedSchema,
  inquirySchema,
  itemsQuerySchema,
  messageSchema,
  subscribeBodySchema,
  subscribedSchema,
  subscribeQuerySchema,
  teamMemberSchema,
  xsrfAnswerSchema,
} from "../../../shared/schemas.ts";
import { topicIdsOf } from "../../../shared/subscription.ts";
import { EncodedCache, encodeBody, sendEncoded } from "../../platform/http/encoded-body.ts";
import { captchaRefusalBody, headerDefences } from "../../platform/security/bot-defence.ts";
import { validationFailure } from "../../platform/security/errors.ts";
import { storeInquiry } from "../inquiries/index.ts";
import {
  ALREADY_SUBSCRIBED_MESSAGE,
  CONFIRMATION_SENT_MESSAGE,
  SUBSCRIBED_MESSAGE,
  storeSubscription,
} from "../subscriptions/index.ts";
import { confirmsByMail } from "./form-service.ts";
import { inquiryTypeRefusal } from "./inquiry-types.ts";

export { ALREADY_SUBSCRIBED_MESSAGE, CONFIRMATION_SENT_MESSAGE, SUBSCRIBED_MESSAGE };

/** The 201 of a subscription, stored or kept among the turned-away posts alike. */
const subscribedAnswer = (confirmationAsked: boolean) => ({
  message: confirmationAsked ? CONFIRMATION_SENT_MESSAGE : SUBSCRIBED_MESSAGE,
  confirmationAsked,
});

/** The answers a write may give when its CAPTCHA answer is missing, refused, or cannot be checked. */
const captchaRefusals = {
  400: fieldRefusalSchema,
  403: fieldRefusalSchema,
  503: fieldRefusalSchema,
};

/**
 * The id a trapped inquiry is told it got: in the range of real ones, so that
 * the answer looks like any other (nothing is stored under it).
 */
const decoyInquiryId = () => randomInt(1, 2 ** 31 - 1);

/** Its writes are limited per client address by the rate-limit plugin's default for public writes. */
const api: FastifyPluginAsyncZod = async (app) => {
  // The content lists are checked against their answer schema, serialized and
  // compressed once per version of the content, then sent from memory.
  const lists = new EncodedCache();
  app.content.onChange(() => lists.clear());
  const listRoute = { compress: false } as const;
  async function sendList<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    schema: z.ZodType<T>,
    load: () => Promise<T>,
  ) {
    const body = await lists.get(key, async () =>
      encodeBody(JSON.stringify(schema.parse(await load()))),
    );
    return sendEncoded(request, reply.type("application/json; charset=utf-8"), body);
  }

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
        body: subscribeBodySchema,
        response: { 201: subscribedSchema, 409: messageSchema, ...captchaRefusals },
      },
    },
    async (request, reply) => {
      const screening = await app.botDefence.screen(
        request,
        "subscription",
        headerDefences(request),
      );
      const trap = screening.outcome === "trapped" ? screening : null;
      const mustConfirm = confirmsByMail(trap);
      if (trap && !mustConfirm) {
        await app.turnedAway.keep(
          {
            form: "subscription",
            trap,
            via: CONSENT_VIA.website,
            fields: { ...request.query, source: request.body.source },
          },
          request.log,
        );
        return reply.code(201).send(subscribedAnswer(await app.newsletterSignup.doubleOptInNow()));
      }
      if (screening.outcome === "refused") {
        return reply.code(screening.status).send(captchaRefusalBody(screening.message));
      }
      const subscription = await storeSubscription(
        app,
        request.query.emailId,
        CONSENT_VIA.website,
        {
          mustConfirm,
          source: request.body.source,
          topics: topicIdsOf(request.query.topics ?? "") ?? [],
        },
      );
      if (!subscription) throw app.httpErrors.conflict(ALREADY_SUBSCRIBED_MESSAGE);
      if (subscription.created) app.audience.convert(request, "subscription");
      return reply.code(201).send(subscribedAnswer(subscription.confirmationAsked));
    },
  );

  const teamAnswer = teamMemberSchema.array();
  app.get(
    serverPath(API_PATHS.teams),
    { ...listRoute, schema: { response: { 200: teamAnswer } } },
    (request, reply) => sendList(request, reply, "team", teamAnswer, () => app.content.team()),
  );

  const itemsAnswer = contentItemSchema.array();
  app.get(
    serverPath(API_PATHS.items),
    { ...listRoute, schema: { querystring: itemsQuerySchema, response: { 200: itemsAnswer } } },
    (request, reply) => {
      const { category } = request.query;
      return sendList(request, reply, `items:${category}`, itemsAnswer, () =>
        app.content.items(category),
      );
    },
  );

  const caseStudiesAnswer = caseStudySchema.array();
  app.get(
    serverPath(API_PATHS.caseStudies),
    { ...listRoute, schema: { response: { 200: caseStudiesAnswer } } },
    (request, reply) =>
      sendList(request, reply, "case-studies", caseStudiesAnswer, () => app.content.caseStudies()),
  );

  app.post(
    serverPath(API_PATHS.sendComment),
    {
      schema: {
        body: inquirySchema,
        response: { 200: inquiryReceivedSchema, ...captchaRefusals },
      },
    },
    async (request, reply) => {
      const refused = await inquiryTypeRefusal(app.content, request.body.inquiryType);
      if (Object.keys(refused).length > 0) return reply.code(400).send(validationFailure(refused));
      const screening = await app.botDefence.screen(request, "inquiry", headerDefences(request));
      if (screening.outcome === "trapped") {
        await app.turnedAway.keep(
          { form: "inquiry", trap: screening, via: CONSENT_VIA.website, fields: request.body },
          request.log,
        );
        return { id: decoyInquiryId() };
      }
      if (screening.outcome === "refused") {
        return reply.code(screening.status).send(captchaRefusalBody(screening.message));
      }
      const id = await storeInquiry(app, request.body);
      app.audience.convert(request, "inquiry");
      return { id };
    },
  );
};

export default api;
