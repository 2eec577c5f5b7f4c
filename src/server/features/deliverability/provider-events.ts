/**
 * Delivery reports a mail provider posts: Mailgun's webhooks, SendGrid's
 * Event Webhook and Resend's webhooks. A body is held to bounds before it is
 * parsed (WEBHOOK_BODY_LIMITS). A request counts only when it carries the
 * provider's signature over a timestamp within five minutes of ours (ADR
 * 034), and only once: what each signature covers is remembered while its
 * timestamp could still pass, and a second use is refused (ADR 060). Its
 * bounces and complaints are then recorded like every other report, and
 * what else providers tell (deliveries, opens, clicks) is acknowledged and
 * dropped. A provider whose key is not configured gets 404.
 */
import {
  createHash,
  createHmac,
  createPublicKey,
  type KeyObject,
  timingSafeEqual,
  verify,
} from "node:crypto";
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Kysely } from "kysely";
import { addressParser } from "postal-mime";
import { z } from "zod";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import type { Database, ReportKind } from "../../platform/db/schema.ts";
import { inTransaction } from "../../platform/db/transaction.ts";
import {
  hasBounceAddressForm,
  outboxIdOfBounceAddress,
} from "../../platform/outbox/bounce-address.ts";
import type { PlatformConfig } from "../../platform/server-settings.ts";
import {
  type NewReport,
  type OnHardBounce,
  recordReport,
  softBouncePolicy,
  tellOfHardBounce,
} from "./record.ts";
import { enhancedStatusIn } from "./reports.ts";
import type { DeliverabilitySettings } from "./server-settings.ts";

export const WEBHOOKS_PATH = "/api/v1/deliverability/webhooks";

export const WEBHOOK_REFUSALS = {
  missing: "The request carries no webhook signature.",
  invalid: "The webhook signature does not match.",
  stale: "The webhook timestamp is more than five minutes away from ours.",
  replayed:
    "This webhook signature was used before: each signed request is taken once, and a provider signs each delivery anew.",
} as const;

/**
 * What a webhook body may be, checked before it is parsed. SendGrid posts
 * batches of up to 768 KB, the others one event; their events nest four or
 * five deep, and the longest of their values is a receiving server's reply.
 */
export const WEBHOOK_BODY_LIMITS = {
  bytes: 1024 * 1024,
  depth: 20,
  /** Items in one array or object: a SendGrid batch's events, at well over 100 bytes each. */
  items: 10_000,
  /** One string, as written in the body. */
  stringBytes: 32 * 1024,
} as const;

export const WEBHOOK_BOUND_REFUSALS = {
  bytes: "The webhook body is larger than 1 MB.",
  depth: `The webhook body nests deeper than ${WEBHOOK_BODY_LIMITS.depth} levels.`,
  items: `The webhook body holds a list of more than ${WEBHOOK_BODY_LIMITS.items.toLocaleString("en")} items.`,
  stringBytes: `The webhook body holds a value longer than ${WEBHOOK_BODY_LIMITS.stringBytes / 1024} KB.`,
} as const;

export const UNREADABLE_WEBHOOK_MESSAGE = "The webhook body is not a report this server can read.";

export const UNCONFIGURED_WEBHOOK_MESSAGE = "This server takes no reports from that provider.";

export interface DeliveryWebhooksOptions {
  config: PlatformConfig & DeliverabilitySettings;
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

/** A signature that holds over a recent timestamp: what it covers, and when it was signed. */
interface Signed {
  /** What the signature covers, in the provider's own order: it is taken once. */
  covered: Buffer;
  /** The signed timestamp, Unix seconds. */
  at: number;
}

interface Provider {
  /** Why the request is not the provider's, or what its signature covers when it holds over a recent timestamp. */
  check(request: SignedRequest, nowSeconds: number): { refusal: string } | Signed;
  /** The bounces and complaints in a verified request; null when its body cannot be read. */
  reports(request: SignedRequest): ProviderReport[] | null;
}

/**
 * The replay window: a captured request is worthless after it. Every
 * provider stamps the time it signed; Svix (Resend) and the Standard
 * Webhooks libraries hold it to five minutes either way.
 */
const TOLERANCE_SECONDS = 5 * 60;

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

/** The signature held over `covered`, signed at `timestamp`, or why it was refused. */
function judged(
  timestamp: string,
  nowSeconds: number,
  holds: () => boolean,
  covered: Buffer,
): { refusal: string } | Signed {
  const refusal =
    timestampRefusal(timestamp, nowSeconds) ?? (holds() ? null : WEBHOOK_REFUSALS.invalid);
  return refusal ? { refusal } : { covered, at: Number(timestamp) };
}

/**
 * Null when a JSON body is within WEBHOOK_BODY_LIMITS' depth, items and
 * string lengths, else the refusal. One pass over the bytes, before the
 * body is parsed: a UTF-8 character other than a quote or a backslash
 * never holds their bytes, so strings are found byte by byte.
 */
export function jsonBoundRefusal(body: Uint8Array): { status: 400 | 413; message: string } | null {
  const QUOTE = 0x22;
  const BACKSLASH = 0x5c;
  /** Commas seen in each open array or object, innermost last. */
  const commas: number[] = [];
  let inString = false;
  let escaped = false;
  let stringStart = 0;
  for (let index = 0; index < body.length; index += 1) {
    const byte = body[index];
    if (inString) {
      if (escaped) escaped = false;
      else if (byte === BACKSLASH) escaped = true;
      else if (byte === QUOTE) {
        inString = false;
        if (index - stringStart > WEBHOOK_BODY_LIMITS.stringBytes) {
          return { status: 413, message: WEBHOOK_BOUND_REFUSALS.stringBytes };
        }
      }
      continue;
    }
    switch (byte) {
      case QUOTE:
        inString = true;
        stringStart = index + 1;
        break;
      case 0x5b: // [
      case 0x7b: // {
        commas.push(0);
        if (commas.length > WEBHOOK_BODY_LIMITS.depth) {
          return { status: 400, message: WEBHOOK_BOUND_REFUSALS.depth };
        }
        break;
      case 0x5d: // ]
      case 0x7d: // }
        commas.pop();
        break;
      case 0x2c: {
        // ,
        const innermost = commas.length - 1;
        if (innermost < 0) break;
        commas[innermost] = (commas[innermost] ?? 0) + 1;
        if ((commas[innermost] ?? 0) >= WEBHOOK_BODY_LIMITS.items) {
          return { status: 413, message: WEBHOOK_BOUND_REFUSALS.items };
        }
        break;
      }
    }
  }
  return null;
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
    check({ body }, nowSeconds) {
      const parsed = mailgunSignature.safeParse(jsonOf(body));
      if (!parsed.success) return { refusal: WEBHOOK_REFUSALS.missing };
      const { timestamp, token, signature } = parsed.data.signature;
      // The signature covers the timestamp and the token, not the body.
      const covered = Buffer.from(`${timestamp}${token}`);
      const expected = createHmac("sha256", signingKey).update(covered).digest("hex");
      return judged(
        timestamp,
        nowSeconds,
        () => sameText(signature.toLowerCase(), expected),
        covered,
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
    check({ headers, body }, nowSeconds) {
      const signature = firstHeader(headers, SENDGRID_SIGNATURE);
      const timestamp = firstHeader(headers, SENDGRID_TIMESTAMP);
      if (!signature || !timestamp) return { refusal: WEBHOOK_REFUSALS.missing };
      // What is signed, not the signature, is remembered: an ECDSA signature
      // can be rewritten into another valid one over the same bytes.
      const covered = Buffer.concat([Buffer.from(timestamp), body]);
      return judged(
        timestamp,
        nowSeconds,
        () => verify("sha256", covered, key, Buffer.from(signature, "base64")),
        covered,
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
    check({ headers, body }, nowSeconds) {
      const id = svixHeader(headers, "id");
      const timestamp = svixHeader(headers, "timestamp");
      const signatures = svixHeader(headers, "signature");
      if (!id || !timestamp || !signatures) return { refusal: WEBHOOK_REFUSALS.missing };
      // Svix sends a retry with the same message id and a new timestamp,
      // signed anew: that one is a new signature, taken once in its turn.
      const covered = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]);
      const expected = createHmac("sha256", key).update(covered).digest("base64");
      return judged(
        timestamp,
        nowSeconds,
        () =>
          signatures
            .split(" ")
            .some((entry) => entry.startsWith("v1,") && sameText(entry.slice(3), expected)),
        covered,
      );
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
function configuredProviders(
  config: PlatformConfig & DeliverabilitySettings,
): Record<ProviderName, Provider | null> {
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
function messageLinker(bounceAddress: string | undefined, secret: string) {
  return async (
    db: Kysely<Database>,
    envelopeSender: string | null,
    log: FastifyBaseLogger,
  ): Promise<MessageLink> => {
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

/** A signature is remembered while a request bearing it could pass, and as long again for instances whose clocks differ. */
const REMEMBERED_SECONDS = 2 * TOLERANCE_SECONDS;

const isoAt = (seconds: number) => new Date(seconds * 1000).toISOString();

/** Forgets the signatures whose timestamps are too old to pass anyway. */
async function forgetExpiredSignatures(db: Kysely<Database>, nowSeconds: number): Promise<void> {
  await db.deleteFrom("provider_signatures").where("expires_at", "<", isoAt(nowSeconds)).execute();
}

/**
 * Takes a provider's signature once: false when it was taken before. The
 * primary key decides, in the transaction that records the reports, so of
 * two instances taking the same one at once only one does, and a
 * transaction that fails takes nothing.
 */
async function takeSignature(
  db: Kysely<Database>,
  name: ProviderName,
  { covered, at }: Signed,
): Promise<boolean> {
  const signedHash = createHash("sha256").update(`${name}:`).update(covered).digest("hex");
  const taken = await db
    .insertInto("provider_signatures")
    .values({ signed_hash: signedHash, expires_at: isoAt(at + REMEMBERED_SECONDS) })
    .onConflict((c) => c.column("signed_hash").doNothing())
    .returning("signed_hash")
    .executeTakeFirst();
  return taken !== undefined;
}

function boundRefusalError(
  app: FastifyInstance,
  { status, message }: { status: 400 | 413; message: string },
) {
  return status === 413
    ? app.httpErrors.payloadTooLarge(message)
    : app.httpErrors.badRequest(message);
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
  const linkToMessage = messageLinker(config.BOUNCE_ADDRESS, secret);
  const providers = configuredProviders(config);

  /**
   * Takes the signature and records each report, in one transaction; how
   * many reports were new, or null when the signature was taken before.
   */
  async function recordOnce(
    name: ProviderName,
    signed: Signed,
    reports: ProviderReport[],
    nowSeconds: number,
    log: FastifyBaseLogger,
  ): Promise<number | null> {
    await forgetExpiredSignatures(database.db, nowSeconds);
    const results = await inTransaction(database.db, async (trx) => {
      if (!(await takeSignature(trx, name, signed))) return null;
      const recorded = [];
      for (const { key, envelopeSender, ...report } of reports) {
        const link = await linkToMessage(trx, envelopeSender, log);
        const source = { source: `webhook:${name}`, sourceKey: `${name}:${key}` };
        const full = { ...report, ...source, ...link };
        recorded.push({ full, result: await recordReport(trx, full, policy) });
      }
      return recorded;
    });
    if (!results) return null;
    // Told once the reports are there for whoever is told to read.
    for (const { full, result } of results) await tellOfHardBounce(full, result, onHardBounce, log);
    return results.filter(({ result }) => result.recorded).length;
  }

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    "application/json",
    { parseAs: "buffer", bodyLimit: WEBHOOK_BODY_LIMITS.bytes },
    (_request, body, done) => done(null, body),
  );
  // A body over the size bound is refused by Fastify as it arrives; it is
  // said in the words of the other bounds. Every other failure goes on to
  // the app's own handler.
  app.setErrorHandler((error: FastifyError) => {
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      throw app.httpErrors.payloadTooLarge(WEBHOOK_BOUND_REFUSALS.bytes);
    }
    throw error;
  });

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
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const overBound = jsonBoundRefusal(body);
        if (overBound) throw boundRefusalError(app, overBound);
        const nowSeconds = Math.floor(now() / 1000);
        const checked = provider.check({ headers: request.headers, body }, nowSeconds);
        if ("refusal" in checked) throw app.httpErrors.unauthorized(checked.refusal);
        const reports = provider.reports({ headers: request.headers, body });
        if (!reports) throw app.httpErrors.badRequest(UNREADABLE_WEBHOOK_MESSAGE);
        const recorded = await recordOnce(name, checked, reports, nowSeconds, request.log);
        if (recorded === null) throw app.httpErrors.unauthorized(WEBHOOK_REFUSALS.replayed);
        return { recorded };
      },
    );
  }
};
