/**
 * The console's webhooks (owners only): add, change and remove endpoints,
 * see and rotate a signing secret, read the delivery log, and send a test.
 * Each change and its audit entry commit together; an address is checked
 * before it is saved (and again, resolved, at every delivery).
 */
import type { FastifyInstance } from "fastify";
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
import { refuse } from "../../platform/refusal.ts";
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
  /** Refuses an address no webhook may be sent to, beside the field it was typed in. */
  const checkAddress = (url: string) => {
    const reason = addressRefusal(url, addresses);
    if (reason) throw refuse.badRequest(reason, { url: reason });
  };
  const notFound = () => refuse.notFound(WEBHOOK_TEXTS.notFound);

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
      checkAddress(request.body.url);
      const secret = newSecret();
      const added = await app.consoleWrite(request, "webhook-added", async (trx, audit) => {
        if ((await countEndpoints(trx)) >= WEBHOOK_ENDPOINTS_MAX) {
          throw refuse.conflict(WEBHOOK_TEXTS.tooMany);
        }
        const id = await insertEndpoint(trx, request.body, secret);
        audit.subject = target(id);
        audit.detail = audited(request.body);
        return findEndpoint(trx, id);
      });
      if (!added) throw refuse.conflict(WEBHOOK_TEXTS.tooMany);
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
    async (request) => {
      checkAddress(request.body.url);
      const { id } = request.params;
      const saved = await app.consoleWrite(request, "webhook-changed", async (trx, audit) => {
        const before = await findEndpoint(trx, id);
        if (!before || !(await updateEndpoint(trx, id, request.body))) throw notFound();
        audit.subject = target(id);
        audit.detail = { before: audited(before), after: audited(request.body) };
        return findEndpoint(trx, id, new Date(now()));
      });
      if (!saved) throw notFound();
      return saved;
    },
  );

  routes.delete(
    WEBHOOK_ROUTES.one,
    {
      schema: { params: webhookIdSchema, response: { 200: messageSchema, 404: messageSchema } },
      config: OWNER,
    },
    async (request) => {
      const { id } = request.params;
      await app.consoleWrite(request, "webhook-removed", async (trx, audit) => {
        const before = await findEndpoint(trx, id);
        if (!before || !(await deleteEndpoint(trx, id))) throw notFound();
        audit.subject = target(id);
        audit.detail = audited(before);
      });
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
      const found = await app.consoleWrite(request, "webhook-secret-shown", async (trx, audit) => {
        const row = await endpointSecret(trx, id);
        if (!row) throw notFound();
        audit.subject = target(id);
        return row;
      });
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
      const rotated = await app.consoleWrite(
        request,
        "webhook-secret-rotated",
        async (trx, audit) => {
          if (!(await setSecret(trx, id, secret))) throw notFound();
          audit.subject = target(id);
          return findEndpoint(trx, id, new Date(now()));
        },
      );
      if (!rotated) throw notFound();
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
    async (request) => {
      const { id } = request.params;
      if (!(await findEndpoint(db, id))) throw notFound();
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
      const queued = await app.consoleWrite(request, "webhook-test-sent", async (trx, audit) => {
        const endpoint = await findEndpoint(trx, id);
        if (!endpoint) throw notFound();
        if (!endpoint.enabled) throw refuse.conflict(WEBHOOK_TEXTS.disabledTest);
        const [deliveryId] = await queueDeliveries(
          trx,
          [endpoint],
          testEvent(origin, endpoint.name),
          new Date(now()),
        );
        if (deliveryId === undefined) throw new Error("no test delivery was queued");
        audit.subject = target(id);
        return findDelivery(trx, deliveryId);
      });
      wake();
      return reply.code(202).send({ message: WEBHOOK_TEXTS.testQueued, delivery: queued });
    },
  );
}
