/**
 * Outgoing webhooks in the console (owners only): the addresses the firm's
 * own tools (a Slack channel, a CRM) are told at when something happens on
 * the site, the events each one hears, its body format and its delivery
 * log. Not to be confused with the mail providers' delivery reports, which
 * come in (features/deliverability). The screen, its client and the
 * server's routes use these definitions.
 */
import { z } from "zod";
import { idParamsSchema } from "../row-id.ts";
import { messageSchema, ruledText } from "../schemas.ts";
import { ADMIN_API } from "./auth.ts";
import type { RecordId, RouteSlice } from "./route-entry.ts";

const BASE = `${ADMIN_API}/webhooks`;

/** The server's routes; `:id` is an endpoint's id. */
export const WEBHOOK_ROUTES = {
  list: BASE,
  one: `${BASE}/:id`,
  secret: `${BASE}/:id/secret`,
  rotate: `${BASE}/:id/secret/rotate`,
  test: `${BASE}/:id/test`,
  deliveries: `${BASE}/:id/deliveries`,
} as const;

export const webhookPath = {
  one: (id: number) => `${BASE}/${id}`,
  secret: (id: number) => `${BASE}/${id}/secret`,
  rotate: (id: number) => `${BASE}/${id}/secret/rotate`,
  test: (id: number) => `${BASE}/${id}/test`,
  deliveries: (id: number) => `${BASE}/${id}/deliveries`,
};

/** The console's name of the area and its path. */
export const WEBHOOKS_LABEL = "Webhooks";
export const WEBHOOKS_SCREEN = "webhooks";

/** The events an endpoint may hear; the test is sent on request only. */
export const WEBHOOK_EVENTS = [
  "inquiry.received",
  "subscriber.created",
  "subscriber.confirmed",
  "subscriber.unsubscribed",
  "newsletter.sent",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];
export const TEST_EVENT = "webhook.test";
export type AnyWebhookEventType = WebhookEventType | typeof TEST_EVENT;

export const WEBHOOK_EVENT_LABELS: Record<AnyWebhookEventType, string> = {
  "inquiry.received": "New inquiry",
  "subscriber.created": "New subscriber",
  "subscriber.confirmed": "Subscriber confirmed",
  "subscriber.unsubscribed": "Unsubscribed",
  "newsletter.sent": "Newsletter send finished",
  "webhook.test": "Test",
};

/**
 * The body an endpoint is sent: Slack's incoming-webhook body (a sentence in
 * `text`, which Slack, Mattermost, Rocket.Chat and Teams' Slack-compatible
 * hooks post as a message), or the generic JSON the Standard Webhooks
 * scheme suggests (`type`, `timestamp`, `data`) for a CRM or a script.
 */
export const WEBHOOK_FORMATS = ["slack", "json"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];
export const WEBHOOK_FORMAT_LABELS: Record<WebhookFormat, string> = {
  slack: "Slack-compatible message",
  json: "Generic JSON",
};

export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_NAME_MAX = 100;
/** Endpoints a site may have: a few tools, not a fan-out service. */
export const WEBHOOK_ENDPOINTS_MAX = 20;

export const WEBHOOK_TEXTS = {
  urlRequired: "Give the address the webhook is sent to.",
  urlInvalid: "Give a whole web address, starting with https://.",
  urlTooLong: `Keep the address to ${WEBHOOK_URL_MAX} characters.`,
  urlCredentials: "Leave the user name and password out of the address.",
  httpsOnly:
    "Use an https:// address: the site runs in production, and http would send the events in the clear.",
  httpOrHttps: "Use an http:// or https:// address.",
  privateAddress: (host: string) =>
    `${host} is a loopback, private or reserved address: webhooks cannot be aimed inside the firm's network unless the server's WEBHOOKS_ALLOW_PRIVATE setting allows it.`,
  localName: (host: string) =>
    `${host} names this computer: webhooks cannot be aimed inside the firm's network unless the server's WEBHOOKS_ALLOW_PRIVATE setting allows it.`,
  noEvents: "Choose at least one event.",
  nameRequired: "Give the webhook a name, such as the tool it tells.",
  tooMany: `A site may have at most ${WEBHOOK_ENDPOINTS_MAX} webhooks. Remove one first.`,
  notFound: "This webhook was removed.",
  added: "Webhook added. Copy its signing secret now, or show it again later.",
  saved: "Saved. The next events use these settings.",
  removed: "Webhook removed, with its delivery log.",
  rotated:
    "New signing secret made. The old one no longer signs anything: give the new one to the tool.",
  testQueued: "Test queued. Its answer appears in the log below.",
  disabledTest: "This webhook is turned off. Turn it on to send a test.",
} as const;

const name = ruledText("text", WEBHOOK_TEXTS.nameRequired)
  .trim()
  .min(1, WEBHOOK_TEXTS.nameRequired)
  .max(WEBHOOK_NAME_MAX, `Keep the name to ${WEBHOOK_NAME_MAX} characters.`);

/** The address's form; whether it may be reached is the server's check (it knows its settings). */
const url = ruledText("text", WEBHOOK_TEXTS.urlRequired)
  .trim()
  .min(1, WEBHOOK_TEXTS.urlRequired)
  .max(WEBHOOK_URL_MAX, WEBHOOK_TEXTS.urlTooLong);

export const webhookSaveSchema = z.object({
  name,
  url,
  events: z
    .array(z.enum(WEBHOOK_EVENTS), { error: WEBHOOK_TEXTS.noEvents })
    .min(1, WEBHOOK_TEXTS.noEvents)
    .max(WEBHOOK_EVENTS.length)
    .transform((events) => WEBHOOK_EVENTS.filter((event) => events.includes(event))),
  format: z.enum(WEBHOOK_FORMATS),
  enabled: z.boolean(),
});
export type WebhookSave = z.input<typeof webhookSaveSchema>;

export const webhookIdSchema = idParamsSchema;

export const DELIVERY_STATES = ["pending", "delivered", "failed"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
export const DELIVERY_STATE_LABELS: Record<DeliveryState, string> = {
  pending: "Pending",
  delivered: "Delivered",
  failed: "Failed",
};

const counts = z.object({
  pending: z.number().int(),
  delivered: z.number().int(),
  failed: z.number().int(),
});

export const webhookSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  format: z.enum(WEBHOOK_FORMATS),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The last day's deliveries by state. */
  recent: counts,
});
export type WebhookView = z.infer<typeof webhookSchema>;

export const webhookListSchema = z.object({
  webhooks: z.array(webhookSchema),
  /** Whether the server lets webhooks reach private addresses and plain http (WEBHOOKS_ALLOW_PRIVATE). */
  privateAllowed: z.boolean(),
  /** Whether only https addresses are taken (in production, unless private addresses are allowed). */
  httpsOnly: z.boolean(),
});

/** The answer to adding an endpoint or rotating its secret: the secret, shown once. */
export const webhookWithSecretSchema = z.object({
  webhook: webhookSchema,
  secret: z.string(),
  message: z.string(),
});

export const webhookSecretSchema = z.object({ secret: z.string() });

/** One attempt's answer, as the delivery log shows it. */
export const deliveryAnswerSchema = z.object({
  at: z.string(),
  /** The receiver's HTTP status; null when none came (refused, timed out, unreachable). */
  status: z.number().int().nullable(),
  /** The first bytes of the receiver's body, as text. */
  body: z.string(),
  durationMs: z.number().int(),
  /** What went wrong, in words; null for a 2xx. */
  error: z.string().nullable(),
});
export type DeliveryAnswer = z.infer<typeof deliveryAnswerSchema>;

export const deliverySchema = z.object({
  id: z.number().int(),
  event: z.string(),
  webhookId: z.string(),
  state: z.enum(DELIVERY_STATES),
  attempts: z.number().int(),
  createdAt: z.string(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  /** The latest attempts' answers, newest first. */
  answers: z.array(deliveryAnswerSchema),
});
export type DeliveryView = z.infer<typeof deliverySchema>;

export const deliveryListSchema = z.object({
  deliveries: z.array(deliverySchema),
});

export const testQueuedSchema = z.object({
  message: z.string(),
  delivery: deliverySchema,
});

/**
 * This area's entries of the console's route map (console-routes.ts):
 * Outgoing webhooks: added, saved, removed, their secret shown or rotated, their deliveries, a test.
 */
export const WEBHOOK_CONSOLE_ROUTES = {
  "webhooks.list": {
    method: "GET",
    path: WEBHOOK_ROUTES.list,
    status: 200,
    response: webhookListSchema,
  },
  "webhooks.add": {
    method: "POST",
    path: WEBHOOK_ROUTES.list,
    body: webhookSaveSchema,
    status: 201,
    response: webhookWithSecretSchema,
  },
  "webhooks.save": {
    method: "PUT",
    path: ({ id }: RecordId) => webhookPath.one(id),
    body: webhookSaveSchema,
    status: 200,
    response: webhookSchema,
  },
  "webhooks.remove": {
    method: "DELETE",
    path: ({ id }: RecordId) => webhookPath.one(id),
    status: 200,
    response: messageSchema,
  },
  "webhooks.secret": {
    method: "GET",
    path: ({ id }: RecordId) => webhookPath.secret(id),
    status: 200,
    response: webhookSecretSchema,
  },
  "webhooks.rotate": {
    method: "POST",
    path: ({ id }: RecordId) => webhookPath.rotate(id),
    status: 200,
    response: webhookWithSecretSchema,
  },
  "webhooks.deliveries": {
    method: "GET",
    path: ({ id }: RecordId) => webhookPath.deliveries(id),
    status: 200,
    response: deliveryListSchema,
  },
  "webhooks.test": {
    method: "POST",
    path: ({ id }: RecordId) => webhookPath.test(id),
    status: 202,
    response: testQueuedSchema,
  },
} as const satisfies RouteSlice;
