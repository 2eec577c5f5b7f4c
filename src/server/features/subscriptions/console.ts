/**
 * The console's subscribers: viewers find, read and export them; an editor
 * unsubscribes an address on the person's request; only an owner erases one
 * (docs/privacy/erasure.md). Every change and export is audited, and an
 * erasure's audit entry names the subscription and the hash, never the address.
 */

import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { confirmAddressSchema, ERASURE_TEXTS } from "../../../shared/admin/erasure.ts";
import { SOURCE_EXPORT_COLUMNS } from "../../../shared/admin/lead-source.ts";
import {
  CONSENT_VIA,
  newTopicSchema,
  PAGE_SIZE,
  SUBSCRIBER_ROUTES,
  SUBSCRIBER_TEXTS,
  subscriberDetailSchema,
  subscriberFilterSchema,
  subscriberIdSchema,
  subscriberListQuerySchema,
  subscriberListSchema,
  subscriberPersonSchema,
  subscriberStatsSchema,
  TOPIC_TEXTS,
  tagListSchema,
  topicListSchema,
  topicSchema,
} from "../../../shared/admin/subscribers.ts";
import { fieldRefusalSchema } from "../../../shared/schemas.ts";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { sendCsv } from "../../platform/console/csv.ts";
import { forgetErasedRows } from "../../platform/db/erased-rows.ts";
import { joinedOutbox } from "../../platform/outbox/queue.ts";
import { refuse } from "../../platform/refusal.ts";
import { signingSecret } from "../../platform/security/signing-secret.ts";
import { tagCounts, topicCounts } from "./segments.ts";
import {
  eraseSubscriber,
  exportSubscribers,
  findSubscriber,
  listSubscribers,
  SUBSCRIBER_ERASURE_TABLES,
  savePerson,
  subscriberStats,
} from "./subscribers.ts";
import { addTopic, removeTopic } from "./topics.ts";
import { endSubscription } from "./writes.ts";

const EXPORT_COLUMNS = [
  "address",
  "first_name",
  "last_name",
  "tags",
  "topics",
  "fields",
  "status",
  "subscribed_at",
  "imported_at",
  "via",
  "unsubscribed_at",
  ...SOURCE_EXPORT_COLUMNS,
];

const messageSchema = z.object({ message: z.string() });

const target = (id: number) => `subscription:${id}`;

export default async function subscribersRoutes(
  app: FastifyInstance,
  { config, database }: AdminAreaOptions,
) {
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  // The same secret the unsubscribe links are signed with (the configured one,
  // or the one kept in site_meta): erasure hashes are keyed by it.
  const secret = await signingSecret(db, config.UNSUBSCRIBE_SECRET);

  async function subscriberOr404(id: number) {
    const subscriber = await findSubscriber(db, id);
    if (!subscriber) throw refuse.notFound(SUBSCRIBER_TEXTS.notFound);
    return subscriber;
  }

  routes.get(
    SUBSCRIBER_ROUTES.list,
    {
      schema: { querystring: subscriberListQuerySchema, response: { 200: subscriberListSchema } },
      config: { role: "viewer" },
    },
    async (request) => {
      const { page, ...filter } = request.query;
      const { items, total } = await listSubscribers(db, filter, page);
      return { items, total, page, pageSize: PAGE_SIZE };
    },
  );

  routes.get(
    SUBSCRIBER_ROUTES.stats,
    { schema: { response: { 200: subscriberStatsSchema } }, config: { role: "viewer" } },
    () => subscriberStats(database),
  );

  routes.get(
    SUBSCRIBER_ROUTES.tags,
    { schema: { response: { 200: tagListSchema } }, config: { role: "viewer" } },
    async () => ({ items: await tagCounts(db) }),
  );

  routes.get(
    SUBSCRIBER_ROUTES.topics,
    { schema: { response: { 200: topicListSchema } }, config: { role: "viewer" } },
    async () => ({ items: await topicCounts(db) }),
  );

  // The topics are the subscribe page's content: changed through
  // app.content.edit, so every instance's page shows the change.
  routes.post(
    SUBSCRIBER_ROUTES.topics,
    {
      schema: {
        body: newTopicSchema,
        response: { 201: topicSchema, 400: fieldRefusalSchema, 409: fieldRefusalSchema },
      },
      config: { role: "editor" },
    },
    async (request, reply) => {
      const topic = await app.consoleWrite(request, "topic-added", (trx, audit) =>
        app.content.edit(async (edit) => {
          const added = await addTopic(edit, request.body.name);
          if (added === "taken")
            throw refuse.conflict(TOPIC_TEXTS.taken, { name: TOPIC_TEXTS.taken });
          if (added === "full") throw refuse.conflict(TOPIC_TEXTS.full, { name: TOPIC_TEXTS.full });
          audit.subject = `topic:${added.id}`;
          audit.detail = { name: added.name };
          return added;
        }, trx),
      );
      return reply.code(201).send(topic);
    },
  );

  routes.delete(
    SUBSCRIBER_ROUTES.topic,
    {
      schema: { params: subscriberIdSchema, response: { 204: z.null(), 404: messageSchema } },
      config: { role: "editor" },
    },
    async (request, reply) => {
      const { id } = request.params;
      await app.consoleWrite(request, "topic-removed", (trx, audit) =>
        app.content.edit(async (edit) => {
          const removed = await removeTopic(edit, id);
          if (!removed) throw refuse.notFound(TOPIC_TEXTS.notFound);
          audit.subject = `topic:${id}`;
          audit.detail = { name: removed.name };
        }, trx),
      );
      return reply.code(204).send(null);
    },
  );

  routes.get(
    SUBSCRIBER_ROUTES.export,
    {
      schema: { querystring: subscriberFilterSchema, response: { 200: z.string() } },
      config: { role: "viewer" },
    },
    async (request, reply) => {
      const rows = await exportSubscribers(db, request.query);
      await app.auditNoChange(request, "subscribers-exported", undefined, {
        filter: request.query,
        rows: rows.length,
      });
      return sendCsv(reply, "subscribers.csv", rows, EXPORT_COLUMNS);
    },
  );

  routes.get(
    SUBSCRIBER_ROUTES.one,
    {
      schema: { params: subscriberIdSchema, response: { 200: subscriberDetailSchema } },
      config: { role: "viewer" },
    },
    (request) => subscriberOr404(request.params.id),
  );

  routes.put(
    SUBSCRIBER_ROUTES.person,
    {
      schema: {
        params: subscriberIdSchema,
        body: subscriberPersonSchema,
        response: { 200: subscriberDetailSchema, 400: fieldRefusalSchema, 404: messageSchema },
      },
      config: { role: "editor" },
    },
    async (request) => {
      const { id } = request.params;
      await app.consoleWrite(request, "subscriber-edited", async (trx, audit) => {
        if (!(await savePerson(trx, id, request.body))) {
          throw refuse.notFound(SUBSCRIBER_TEXTS.notFound);
        }
        audit.subject = target(id);
        audit.detail = { tags: request.body.tags.join(", ") };
      });
      return subscriberOr404(id);
    },
  );

  routes.post(
    SUBSCRIBER_ROUTES.unsubscribe,
    {
      schema: {
        params: subscriberIdSchema,
        response: { 200: subscriberDetailSchema, 409: messageSchema },
      },
      config: { role: "editor" },
    },
    async (request) => {
      const { id } = request.params;
      await subscriberOr404(id);
      await app.consoleWrite(request, "subscriber-unsubscribed", async (trx, audit) => {
        // Ended by the same write the other ways use, inside this transaction.
        const writer = { webhookEvents: app.webhookEvents, withOutbox: joinedOutbox(trx) };
        if (!(await endSubscription(writer, id, CONSENT_VIA.console))) {
          throw refuse.conflict(SUBSCRIBER_TEXTS.alreadyUnsubscribed);
        }
        audit.subject = target(id);
      });
      return subscriberOr404(id);
    },
  );

  routes.delete(
    SUBSCRIBER_ROUTES.one,
    {
      schema: {
        params: subscriberIdSchema,
        body: confirmAddressSchema,
        response: { 204: z.null(), 400: fieldRefusalSchema },
      },
      config: { role: "owner" },
    },
    async (request, reply) => {
      const { id } = request.params;
      const subscriber = await subscriberOr404(id);
      // The typed address proves the person meant this one; the server checks
      // it too, so no client can erase by id alone.
      if (request.body.email !== subscriber.email) {
        const mismatch = ERASURE_TEXTS.confirmMismatch;
        throw refuse.badRequest(mismatch, { email: mismatch });
      }
      await app.consoleWrite(request, "subscriber-erased", async (trx, audit) => {
        const erasure = await eraseSubscriber({ ...database, db: trx }, id, secret);
        if (!erasure) throw refuse.notFound(SUBSCRIBER_TEXTS.notFound);
        audit.subject = target(id);
        audit.detail = { emailHash: erasure.emailHash, mailDeleted: erasure.mailDeleted };
      });
      // Once committed, what lies outside the rows: the mail to them written
      // to the mailbox folder, and the deleted rows' bytes still on disk.
      await app.removeMailboxCopies({ sentTo: subscriber.email });
      await forgetErasedRows(database, SUBSCRIBER_ERASURE_TABLES, request.log);
      return reply.code(204).send(null);
    },
  );
}
