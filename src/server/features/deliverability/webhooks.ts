/**
 * Delivery reports a mail provider posts: Mailgun's webhooks, SendGrid's
 * Event Webhook and Resend's webhooks. A request counts only when it carries
 * the provider's signature over a timestamp within five minutes of ours
 * (ADR 034); its bounces and complaints are then recorded like every other
 * report, and what else providers tell (deliveries, opens, clicks) is
 * acknowledged and dropped. A provider whose key is not configured gets 404.
 */
import { createHmac, createPublicKey, type KeyObject, timingSafeEqual, verify } from "node:crypto";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Kysely } from "kysely";
import { addressParser } from "postal-mime";
import { z } from "zod";
import type { Config } from "../../platform/config.ts";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import type { Database, ReportKind } from "../../platform/db/schema.ts";
import {
  hasBounceAddressForm,
  outboxIdOfBounceAddress,
} from "../../platform/outbox/bounce-address.ts";
import {
  type NewReport,
  type OnHardBounce,
  recordReport,
  softBouncePolicy,
  tellOfHardBounce,
} from "./record.ts";
import { enhancedStatusIn } from "./reports.ts";

export const WEBHOOKS_PATH = "/api/v1/deliverability/webhooks";

export const WEBHOOK_REFUSALS = {
  missing: "The request carries no webhook signature.",
  invalid: "The webhook signature does not match.",
  stale: "The webhook timestamp is more than five minutes away from ours.",
} as const;

export const UNREADABLE_WEBHOOK_MESSAGE = "The webhook body is not a report this server can read.";

export const UNCONFIGURED_WEBHOOK_MESSAGE = "This server takes no reports from that provider.";

export interface DeliveryWebhooksOptions {
  config: Config;
  database: DatabaseHandle;
  /** The server's signing secret, which signed the bounce addresses the outbox sends from. */
  secret: string;
  /** The clock signed timestamps are held against (epoch ms); tests pass their own. */
  now?: () => number;
  onHardBounce?: OnHardBounce;
}

const PROVIDER_NAMES = ["mailgun", "sendgrid", "resend"] as const;

type ProviderName = (typeof PROVIDER_NAMES)[number];

/** A bounce or complaint as a provider tells it, before it is tied to a message of ours. */
interface ProviderReport {
  kind: ReportKind;
  /** Names the report at the provider, alike on every redelivery. */
  key: string;
  email: string;
  status: string | null;
  text: string;
  /** The envelope sender the provider saw, where it says: our signed bounce address names the message. */
  envelopeSender: string | null;
}

interface SignedRequest {
  headers: FastifyRequest["headers"];
  body: Buffer;
}

interface Provider {
  /** Why the request is not the provider's, or null when its signature holds over a recent timestamp. */
  refusal(request: SignedRequest, nowSeconds: number): string | null;
  /** The bounces and complaints in a verified request; null when its body cannot be read. */
  reports(request: SignedRequest): ProviderReport[] | null;
}

/**
 * The replay window: a captured request is worthless after it. Every
 * provider stamps the time it signed; Svix (Resend) and the Standard
 * Webhooks libraries hold it to five minutes either way.
 */
const TOLERANCE_SECONDS = 5 * 60;

/** SendGrid posts its events in batches of up to 768 KB; the other two post one event a request. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/** A soft bounce counts once for its message, however often the provider retries it and says so. */
const softKey = (messageId: string | undefined, eventId: string) => `soft:${messageId ?? eventId}`;

/** A field a provider writes as a string or a number, read as a string. */
const stringOrNumber = z.union([z.string(), z.number()]).transform(String);

// --- Shared reading -------------------------------------------------------

function firstHeader(headers: SignedRequest["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function jsonOf(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
}

function sameText(given: string, expected: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Null when the signed timestamp (Unix seconds) is recent, else why not. */
function timestampRefusal(timestamp: string, nowSeconds: number): string | null {
  if (!/^\d{1,12}$/.test(timestamp)) return WEBHOOK_REFUSALS.invalid;
  return Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS
    ? WEBHOOK_REFUSALS.stale
    : null;
}

/** `someone@example.com` from a bare address or `Name <someone@example.com>`; null without one. */
function mailbox(value: string | undefined): string | null {
  const address = addressParser(value ?? "", { flatten: true })[0]?.address?.trim();
  return address?.includes("@") ? address.toLowerCase() : null;
}

/** The status a provider gives, else the enhanced status code in its words. */
function statusOf(given: string | undefined, words: string): string | null {
  return given || enhancedStatusIn(words);
}

// --- Mailgun --------------------------------------------------------------
// The JSON body carries its own signature block: the hex HMAC-SHA256 of the
// timestamp and the token, written together, under the webhook signing key.

const mailgunSignature = z.object({
  signature: z.object({
    timestamp: stringOrNumber,
    token: z.string().min(1),
    signature: z.string().min(1),
  }),
});

const mailgunEvent = z.object({
  "event-data": z.object({
    id: z.string().min(1),
    event: z.string(),
    severity: z.string().optional(),
    reason: z.string().optional(),
    recipient: z.string().optional(),
    envelope: z.object({ sender: z.string().optional() }).optional(),
    message: z
      .object({ headers: z.object({ "message-id": z.string().optional() }).optional() })
      .optional(),
    "delivery-status": z
      .object({
        code: stringOrNumber.optional(),
        "enhanced-code": z.string().optional(),
        message: z.string().optional(),
        description: z.string().optional(),
      })
      .nullish(),
  }),
});

type MailgunEvent = z.infer<typeof mailgunEvent>["event-data"];

function mailgunKind({ event, severity }: MailgunEvent): ReportKind | null {
  if (event === "complained") return "complaint";
  if (event !== "failed") return null;
  // Only a failure Mailgun calls permanent suppresses at once.
  return severity === "permanent" ? "hard" : "soft";
}

function mailgunReport(event: MailgunEvent, kind: ReportKind): ProviderReport | null {
  const email = mailbox(event.recipient);
  if (!email) return null;
  const delivery = event["delivery-status"];
  const words = delivery?.message || delivery?.description || event.reason || event.event;
  return {
    kind,
    key: kind === "soft" ? softKey(event.message?.headers?.["message-id"], event.id) : event.id,
    email,
    status:
      kind === "complaint"
        ? null
        : (statusOf(delivery?.["enhanced-code"], words) ?? delivery?.code ?? null),
    text: words,
    envelopeSender: event.envelope?.sender ?? null,
  };
}

function mailgun(signingKey: string): Provider {
  return {
    refusal({ body }, nowSeconds) {
      const parsed = mailgunSignature.safeParse(jsonOf(body));
      if (!parsed.success) return WEBHOOK_REFUSALS.missing;
      const { timestamp, token, signature } = parsed.data.signature;
      const expected = createHmac("sha256", signingKey)
        .update(`${timestamp}${token}`)
        .digest("hex");
      return (
        timestampRefusal(timestamp, nowSeconds) ??
        (sameText(signature.toLowerCase(), expected) ? null : WEBHOOK_REFUSALS.invalid)
      );
    },
    reports({ body }) {
      const parsed = mailgunEvent.safeParse(jsonOf(body));
      if (!parsed.success) return null;
      const event = parsed.data["event-data"];
      const kind = mailgunKind(event);
      if (!kind) return [];
      const report = mailgunReport(event, kind);
      return report && [report];
    },
  };
}

// --- SendGrid -------------------------------------------------------------
// An ECDSA (P-256, SHA-256) signature, base64 DER in a header, over the
// timestamp header followed by the raw body; checked with the public key
// SendGrid shows (base64 DER SubjectPublicKeyInfo).

const SENDGRID_SIGNATURE = "x-twilio-email-event-webhook-signature";
const SENDGRID_TIMESTAMP = "x-twilio-email-event-webhook-timestamp";

const sendgridEvents = z.array(
  z.object({
    event: z.string(),
    email: z.string().optional(),
    sg_event_id: z.string().optional(),
    sg_message_id: z.string().optional(),
    type: stringOrNumber.optional(),
    reason: stringOrNumber.optional(),
    status: stringOrNumber.optional(),
    response: stringOrNumber.optional(),
  }),
);

type SendGridEvent = z.infer<typeof sendgridEvents>[number];

/**
 * Drops that say the address itself is done for: SendGrid refused to send
 * because it bounced or complained before, perhaps before this webhook
 * was set up. Its other drops (unsubscribed, spam content) are not reports.
 */
const SENDGRID_DROPS: Record<string, ReportKind> = {
  "Bounced Address": "hard",
  Invalid: "hard",
  "Spam Reporting Address": "complaint",
};

function sendgridKind({ event, type, reason }: SendGridEvent): ReportKind | null {
  switch (event) {
    // A block is SendGrid's soft bounce: the receiving server may take mail later.
    case "bounce":
      return type === "blocked" ? "soft" : "hard";
    case "deferred":
      return "soft";
    case "dropped":
      return SENDGRID_DROPS[reason ?? ""] ?? null;
    case "spamreport":
      return "complaint";
    default:
      return null;
  }
}

function sendgridReport(event: SendGridEvent, kind: ReportKind): ProviderReport | null {
  const email = mailbox(event.email);
  if (!email || !event.sg_event_id) return null;
  const words = event.reason || event.response || event.event;
  return {
    kind,
    key: kind === "soft" ? softKey(event.sg_message_id, event.sg_event_id) : event.sg_event_id,
    email,
    status: kind === "complaint" ? null : statusOf(event.status, words),
    text: words,
    // SendGrid's events do not name the envelope sender.
    envelopeSender: null,
  };
}

/** The key SendGrid shows; a key of another kind stops the server from starting. */
function sendgridKey(base64: string): KeyObject {
  const key = createPublicKey({ key: Buffer.from(base64, "base64"), format: "der", type: "spki" });
  if (key.asymmetricKeyDetails?.namedCurve !== "prime256v1") {
    throw new Error("SENDGRID_WEBHOOK_PUBLIC_KEY is not an ECDSA P-256 public key");
  }
  return key;
}

function sendgrid(publicKey: string): Provider {
  const key = sendgridKey(publicKey);
  return {
    refusal({ headers, body }, nowSeconds) {
      const signature = firstHeader(headers, SENDGRID_SIGNATURE);
      const timestamp = firstHeader(headers, SENDGRID_TIMESTAMP);
      if (!signature || !timestamp) return WEBHOOK_REFUSALS.missing;
      const signed = Buffer.concat([Buffer.from(timestamp), body]);
      return (
        timestampRefusal(timestamp, nowSeconds) ??
        (verify("sha256", signed, key, Buffer.from(signature, "base64"))
          ? null
          : WEBHOOK_REFUSALS.invalid)
      );
    },
    reports({ body }) {
      const parsed = sendgridEvents.safeParse(jsonOf(body));
      if (!parsed.success) return null;
      const reports: ProviderReport[] = [];
      for (const event of parsed.data) {
        const kind = sendgridKind(event);
        if (!kind) continue;
        const report = sendgridReport(event, kind);
        if (!report) return null;
        reports.push(report);
      }
      return reports;
    },
  };
}

// --- Resend ---------------------------------------------------------------
// Svix's scheme (Standard Webhooks): the base64 HMAC-SHA256 of
// `<id>.<timestamp>.<raw body>` under the secret's base64 part, given as
// `v1,<signature>`, several separated by spaces while a secret is rotated.
// Resend sends the svix- headers; Svix's libraries also read webhook- ones.

const SECRET_PREFIX = "whsec_";

const resendEvent = z.object({
  type: z.string(),
  data: z
    .object({
      email_id: z.string().optional(),
      to: z.array(z.string()).optional(),
      bounce: z.object({ type: z.string().optional(), message: z.string().optional() }).optional(),
    })
    .optional(),
});

type ResendEvent = z.infer<typeof resendEvent>;

function resendKind({ type, data }: ResendEvent): ReportKind | null {
  switch (type) {
    // Resend sends a bounce it cannot classify as "Undetermined": only
    // repeats of it should suppress.
    case "email.bounced":
      return (data?.bounce?.type ?? "Permanent") === "Permanent" ? "hard" : "soft";
    case "email.delivery_delayed":
      return "soft";
    case "email.complained":
      return "complaint";
    default:
      return null;
  }
}

function resendReport(
  event: ResendEvent,
  kind: ReportKind,
  eventId: string,
): ProviderReport | null {
  // The site sends each message to one address; a report on several names no one in particular.
  const recipients = event.data?.to ?? [];
  const email = recipients.length === 1 ? mailbox(recipients[0]) : null;
  if (!email) return null;
  const words = event.data?.bounce?.message || event.type;
  return {
    kind,
    key: kind === "soft" ? softKey(event.data?.email_id, eventId) : eventId,
    email,
    status: kind === "complaint" ? null : enhancedStatusIn(words),
    text: words,
    // Resend's events do not name the envelope sender.
    envelopeSender: null,
  };
}

function svixHeader(headers: SignedRequest["headers"], name: string): string | undefined {
  return firstHeader(headers, `svix-${name}`) ?? firstHeader(headers, `webhook-${name}`);
}

function resend(secret: string): Provider {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
  return {
    refusal({ headers, body }, nowSeconds) {
      const id = svixHeader(headers, "id");
      const timestamp = svixHeader(headers, "timestamp");
      const signatures = svixHeader(headers, "signature");
      if (!id || !timestamp || !signatures) return WEBHOOK_REFUSALS.missing;
      const expected = createHmac("sha256", key)
        .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]))
        .digest("base64");
      const matches = signatures
        .split(" ")
        .some((entry) => entry.startsWith("v1,") && sameText(entry.slice(3), expected));
      return timestampRefusal(timestamp, nowSeconds) ?? (matches ? null : WEBHOOK_REFUSALS.invalid);
    },
    reports({ headers, body }) {
      const parsed = resendEvent.safeParse(jsonOf(body));
      const eventId = svixHeader(headers, "id");
      if (!parsed.success || !eventId) return null;
      const kind = resendKind(parsed.data);
      if (!kind) return [];
      const report = resendReport(parsed.data, kind, eventId);
      return report && [report];
    },
  };
}

// --- The routes -----------------------------------------------------------

/** The providers whose key is set; the others' routes answer 404. */
function configuredProviders(config: Config): Record<ProviderName, Provider | null> {
  return {
    mailgun: config.MAILGUN_WEBHOOK_SIGNING_KEY
      ? mailgun(config.MAILGUN_WEBHOOK_SIGNING_KEY)
      : null,
    sendgrid: config.SENDGRID_WEBHOOK_PUBLIC_KEY
      ? sendgrid(config.SENDGRID_WEBHOOK_PUBLIC_KEY)
      : null,
    resend: config.RESEND_WEBHOOK_SECRET ? resend(config.RESEND_WEBHOOK_SECRET) : null,
  };
}

type MessageLink = Pick<NewReport, "outboxId" | "messageKind" | "issueId">;

const UNLINKED: MessageLink = { outboxId: null, messageKind: null, issueId: null };

/**
 * What the envelope sender a provider passed back says of the message: our
 * signed bounce address names its outbox row, and through it the kind of
 * mail and the issue. A token that does not verify is forged or mangled:
 * it is logged and the report stands on its recipient alone, which the
 * provider's signature vouches for.
 */
function messageLinker(db: Kysely<Database>, bounceAddress: string | undefined, secret: string) {
  return async (envelopeSender: string | null, log: FastifyBaseLogger): Promise<MessageLink> => {
    if (!bounceAddress || !envelopeSender) return UNLINKED;
    if (!hasBounceAddressForm(bounceAddress, envelopeSender)) return UNLINKED;
    const outboxId = outboxIdOfBounceAddress(bounceAddress, secret, envelopeSender);
    if (outboxId === null) {
      log.warn(
        { envelopeSender },
        "webhook report: its bounce address is forged or mangled; recorded by its recipient alone",
      );
      return UNLINKED;
    }
    const row = await db
      .selectFrom("outbox")
      .select(["kind", "issue_id"])
      .where("id", "=", outboxId)
      .executeTakeFirst();
    return { outboxId, messageKind: row?.kind ?? null, issueId: row?.issue_id ?? null };
  };
}

const recordedSchema = z.object({ recorded: z.number().int().min(0) });

/**
 * POST /api/v1/deliverability/webhooks/<provider>, for each provider; one
 * whose key is unset answers 404. Registered in a scope of its own: its body
 * parser, which keeps the raw bytes the signatures are made over, stays here.
 */
export const deliveryWebhooks: FastifyPluginAsyncZod<DeliveryWebhooksOptions> = async (
  app,
  { config, database, secret, now = Date.now, onHardBounce },
) => {
  const policy = softBouncePolicy(config);
  const linkToMessage = messageLinker(database.db, config.BOUNCE_ADDRESS, secret);
  const providers = configuredProviders(config);

  /** Records each report; how many were new. */
  async function record(name: ProviderName, reports: ProviderReport[], log: FastifyBaseLogger) {
    let recorded = 0;
    for (const { key, envelopeSender, ...report } of reports) {
      const link = await linkToMessage(envelopeSender, log);
      const source = { source: `webhook:${name}`, sourceKey: `${name}:${key}` };
      const full = { ...report, ...source, ...link };
      const result = await recordReport(database.db, full, policy);
      await tellOfHardBounce(full, result, onHardBounce, log);
      if (result.recorded) recorded += 1;
    }
    return recorded;
  }

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    "application/json",
    { parseAs: "buffer", bodyLimit: WEBHOOK_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  for (const name of PROVIDER_NAMES) {
    const provider = providers[name];
    app.post(
      `${WEBHOOKS_PATH}/${name}`,
      {
        schema: { response: { 200: recordedSchema } },
        // A provider sends no cookie: its signature is the proof. It posts
        // from a handful of addresses, one request for each event (Mailgun,
        // Resend) or each batch (SendGrid), at the pace the outbox sends: the
        // public forms' per-address limit would turn a newsletter's bounces
        // away. Still a limit, so a flood of unsigned posts is cut off before
        // its bodies are read; a provider that meets it tries again later.
        config: {
          xsrf: false,
          rateLimit: { max: config.RATE_LIMIT_WEBHOOK_PER_MINUTE, timeWindow: "1 minute" },
        },
      },
      async (request) => {
        if (!provider) throw app.httpErrors.notFound(UNCONFIGURED_WEBHOOK_MESSAGE);
        const signed = {
          headers: request.headers,
          body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        };
        const refusal = provider.refusal(signed, Math.floor(now() / 1000));
        if (refusal) throw app.httpErrors.unauthorized(refusal);
        const reports = provider.reports(signed);
        if (!reports) throw app.httpErrors.badRequest(UNREADABLE_WEBHOOK_MESSAGE);
        return { recorded: await record(name, reports, request.log) };
      },
    );
  }
};
