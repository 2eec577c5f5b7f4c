/**
 * The API of spec §7. Every route declares its schema; the handlers only
 * translate between HTTP and the queries in db/. A write and the e-mail it
 * causes are committed in one transaction.
 */
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import type { Inquiry } from "../../shared/inquiry.ts";
import { inquirySchema, itemsQuerySchema, subscribeQuerySchema } from "../../shared/schemas.ts";
import { normalizeEmail } from "../../shared/subscription.ts";
import type { DatabaseHandle } from "../db/connection.ts";
import { listItems, listTeam } from "../db/content.ts";
import { insertInquiry } from "../db/inquiries.ts";
import { subscribe } from "../db/subscriptions.ts";
import type { MailQueue } from "../mail/mail-queue.ts";

export const SUBSCRIBED_MESSAGE = "Subscribed to Insight.";
export const ALREADY_SUBSCRIBED_MESSAGE = "This e-mail address is already subscribed to Insight.";

export interface ApiOptions {
  database: DatabaseHandle;
  mail: MailQueue;
  /** Limit for the routes that write, per client address and minute. */
  writesPerMinute: number;
}

export default async function api(
  app: FastifyInstance,
  { database, mail, writesPerMinute }: ApiOptions,
) {
  const { db } = database;
  const writeLimit = { rateLimit: { max: writesPerMinute, timeWindow: "1 minute" } };

  app.get("/xsrf", async (request) => ({ token: request.xsrfToken }));

  app.post<{ Querystring: z.infer<typeof subscribeQuerySchema> }>(
    "/subscribe",
    { schema: { querystring: subscribeQuerySchema }, config: writeLimit },
    async (request, reply) => {
      const email = normalizeEmail(request.query.emailId);
      const subscription = await db.transaction().execute(async (trx) => {
        const created = await subscribe(trx, email, "website");
        if (created) await mail.welcome(trx, created);
        return created;
      });
      if (!subscription) return reply.code(409).send({ message: ALREADY_SUBSCRIBED_MESSAGE });
      mail.onQueued();
      return reply.code(201).send({ message: SUBSCRIBED_MESSAGE });
    },
  );

  app.get("/teams", async () => listTeam(db));

  app.get<{ Querystring: z.infer<typeof itemsQuerySchema> }>(
    "/items",
    { schema: { querystring: itemsQuerySchema } },
    async (request) => listItems(db, request.query.category),
  );

  app.post<{ Body: Inquiry }>(
    "/send-comment",
    { schema: { body: inquirySchema }, config: writeLimit },
    async (request) => {
      const id = await db.transaction().execute(async (trx) => {
        const inserted = await insertInquiry(trx, request.body);
        await mail.inquiry(trx, request.body);
        return inserted;
      });
      mail.onQueued();
      return { id };
    },
  );
}
