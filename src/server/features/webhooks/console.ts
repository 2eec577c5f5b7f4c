/**
 * The console's webhooks (owners only): add, change and remove endpoints,
 * see and rotate a signing secret, read the delivery log, and send a test.
 * Each change and its audit entry commit together; an address is checked
 * before it is saved (and again, resolved, at every delivery).
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Kysely } from "kysely";
import {
  deliveryListSchema,
  testQueuedSchema,
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_ROUTES,
  WEBHOOK_TEXTS,
  type WebhookView,
  webhookIdSchema,
  webhookListSchema,
  webhookSaveSchema,
  webhookSchema,
  webhookSecretSchema,
  webhookWithSecretSchema,
} from "../../../shared/admin/webhooks.ts";
import { fieldRefusalSchema, messageSchema } from "../../../shared/schemas.ts";
import type { Database } from "../../platform/db/schema.ts";
import { inTransaction } from "../../platform/db/transaction.ts";
import { type AddressPolicy, addressRefusal } from "./addresses.ts";
import { testEvent } from "./events.ts";
import { queueDeliveries } from "./queue.ts";
import {
  countEndpoints,
  deleteEndpoint,
  deliveryLog,
  endpointSecret,
  findDelivery,
  findEndpoint,
  insertEndpoint,
  listEndpoints,
  newSecret,
  setSecret,
  updateEndpoint,
} from "./rows.ts";

const OWNER = { role: "owner" } as const;
/** A test goes to the firm's own tool; a few a minute are plenty to check one. */
const TEST_LIMIT = { max: 10, timeWindow: "1 minute" };

const target = (id: number) => `webhook:${id}`;

export interface WebhooksConsoleOptions {
  db: Kysely<Database>;
  addresses: AddressPolicy;
  origin: string;
  now: () => number;
  wake: () => void;
}

/** The audit's record of an endpoint: never its secret. */
function audited(webhook: Pick<WebhookView, "name" | "url" | "events" | "format" | "enabled">) {
  const { name, url, events, format, enabled } = webhook;
  return { name, url, events, format, enabled };
}

export default async function webhooksConsole(
  app: FastifyInstance,
  { db, addresses, origin, now, wake }: WebhooksConsoleOptions,
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const refuseAddress = (url: string, reply: FastifyReply) => {
    const reason = addressRefusal(url, addresses);
    if (!reason) return false;
    void reply.code(400).send({ message: reason, fields: { url: reason } });
    return true;
  };
  const notFound = (reply: FastifyReply) =>
    reply.code(404).send({ message: WEBHOOK_TEXTS.notFound });

  routes.get(
    WEBHOOK_ROUTES.list,
    { schema: { response: { 200: webhookListSchema } }, config: OWNER },
    async () => ({
      webhooks: await listEndpoints(db, new Date(now())),
      privateAllowed: addresses.allowPrivate,
      httpsOnly: addresses.production && !addresses.allowPrivate,
    }),
  );

  routes.post(
    WEBHOOK_ROUTES.list,
    {
      schema: {
        body: webhookSaveSchema,
        response: { 201: webhookWithSecretSchema, 400: fieldRefusalSchema, 409: messageSchema },
      },
      config: OWNER,
    },
    async (request, reply) => {
      if (refuseAddress(request.body.url, reply)) return reply;
      const secret = newSecret();
      const added = await inTransaction(db, async (trx) => {
        if ((await countEndpoints(trx)) >= WEBHOOK_ENDPOINTS_MAX) return null;
        const id = await insertEndpoint(trx, request.body, secret);
        await app.audit(trx, request, "webhook-added", target(id), audited(request.body));
        return findEndpoint(trx, id);
      });
      if (!added) return reply.code(409).send({ message: WEBHOOK_TEXTS.tooMany });
      return reply.code(201).send({ webhook: added, secret, message: WEBHOOK_TEXTS.added });
    },
  );

  routes.put(
    WEBHOOK_ROUTES.one,
    {
      schema: {
        params: webhookIdSchema,
        body: webhookSaveSchema,
        response: { 200: webhookSchema, 400: fieldRefusalSchema, 404: messageSchema },
      },
      config: OWNER,
    },
    async (request, reply) => {
      if (refuseAddress(request.body.url, reply)) return reply;
      const { id } = request.params;
      const saved = await inTransaction(db, async (trx) => {
        const before = await findEndpoint(trx, id);
        if (!before || !(await updateEndpoint(trx, id, request.body))) return null;
        await app.audit(trx, request, "webhook-changed", target(id), {
          before: audited(before),
          after: audited(request.body),
        });
        return findEndpoint(trx, id, new Date(now()));
      });
      if (!saved) return notFound(reply);
      return saved;
    },
  );

  routes.delete(
    WEBHOOK_ROUTES.one,
    {
      schema: { params: webhookIdSchema, response: { 200: messageSchema, 404: messageSchema } },
      config: OWNER,
    },
    async (request, reply) => {
      const { id } = request.params;
      const removed = await inTransaction(db, async (trx) => {
        const before = await findEndpoint(trx, id);
        if (!before || !(await deleteEndpoint(trx, id))) return false;
        await app.audit(trx, request, "webhook-removed", target(id), audited(before));
        return true;
      });
      if (!removed) return notFound(reply);
      return { message: WEBHOOK_TEXTS.removed };
    },
  );

  // A GET that reveals the secret is still audited: who saw it, and when.
  routes.get(
    WEBHOOK_ROUTES.secret,
    {
      schema: {
        params: webhookIdSchema,
        response: { 200: webhookSecretSchema, 404: messageSchema },
      },
      config: OWNER,
    },
    async (request, reply) => {
      const { id } = request.params;
      const found = await inTransaction(db, async (trx) => {
        const row = await endpointSecret(trx, id);
        if (row) await app.audit(trx, request, "webhook-secret-shown", target(id));
        return row;
      });
      if (!found) return notFound(reply);
      reply.header("cache-control", "no-store");
      return { secret: found.secret };
    },
  );

  routes.post(
    WEBHOOK_ROUTES.rotate,
    {
      schema: {
        params: webhookIdSchema,
        response: { 200: webhookWithSecretSchema, 404: messageSchema },
      },
      config: OWNER,
    },
    async (request, reply) => {
      const { id } = request.params;
      const secret = newSecret();
      const rotated = await inTransaction(db, async (trx) => {
        if (!(await setSecret(trx, id, secret))) return null;
        await app.audit(trx, request, "webhook-secret-rotated", target(id));
        return findEndpoint(trx, id, new Date(now()));
      });
      if (!rotated) return notFound(reply);
      reply.header("cache-control", "no-store");
      return { webhook: rotated, secret, message: WEBHOOK_TEXTS.rotated };
    },
  );

  routes.get(
    WEBHOOK_ROUTES.deliveries,
    {
      schema: {
        params: webhookIdSchema,
        response: { 200: deliveryListSchema, 404: messageSchema },
      },
      config: OWNER,
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!(await findEndpoint(db, id))) return notFound(reply);
      return { deliveries: await deliveryLog(db, id) };
    },
  );

  routes.post(
    WEBHOOK_ROUTES.test,
    {
      schema: {
        params: webhookIdSchema,
        response: { 202: testQueuedSchema, 404: messageSchema, 409: messageSchema },
      },
      config: { ...OWNER, rateLimit: TEST_LIMIT },
    },
    async (request, reply) => {
      const { id } = request.params;
      const queued = await inTransaction(db, async (trx) => {
        const endpoint = await findEndpoint(trx, id);
        if (!endpoint) return "gone" as const;
        if (!endpoint.enabled) return "off" as const;
        const [deliveryId] = await queueDeliveries(
          trx,
          [endpoint],
          testEvent(origin, endpoint.name),
          new Date(now()),
        );
        if (deliveryId === undefined) throw new Error("no test delivery was queued");
        await app.audit(trx, request, "webhook-test-sent", target(id));
        return findDelivery(trx, deliveryId);
      });
      if (queued === "gone") return notFound(reply);
      if (queued === "off") return reply.code(409).send({ message: WEBHOOK_TEXTS.disabledTest });
      wake();
      return reply.code(202).send({ message: WEBHOOK_TEXTS.testQueued, delivery: queued });
    },
  );
}
