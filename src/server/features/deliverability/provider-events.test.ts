/**
 * Reports posted by mail providers, on both engines: for Mailgun, SendGrid
 * and Resend, a request signed as the provider signs it records its hard
 * bounce or complaint and suppresses the address; the same delivery twice
 * counts once, and a message delayed again and again counts as one soft
 * bounce; a wrong signature, a missing one, a stale timestamp and a
 * signature used before (replayed, alone or with another body) are refused
 * with 401 and record nothing; an event the site does not act on is
 * acknowledged. A body over a bound (size, depth, items, a value's length)
 * is refused before it is parsed. Mailgun passes back the envelope sender: our signed bounce
 * address ties the report to its message, and a forged one is logged and
 * left out. The verification also matches the providers' published test
 * vectors. The routes run in the whole app, with a clock of the test's.
 */
import {
  createHmac,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  randomUUID,
  sign,
} from "node:crypto";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp } from "../../../../test/support/app.ts";
import { ENGINES, type EngineCase } from "../../../../test/support/engines.ts";
import { expectLinear } from "../../../../test/support/growth.ts";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import { bounceAddressFor } from "../../platform/outbox/bounce-address.ts";
import { isSuppressed } from "./index.ts";
import {
  jsonBoundRefusal,
  UNCONFIGURED_WEBHOOK_MESSAGE,
  UNREADABLE_WEBHOOK_MESSAGE,
  WEBHOOK_BODY_LIMITS,
  WEBHOOK_BOUND_REFUSALS,
  WEBHOOK_REFUSALS,
  WEBHOOKS_PATH,
} from "./provider-events.ts";

const SECRET = randomBytes(32).toString("hex");
const BOUNCE_ADDRESS = "bounces@mail.firm.example";
const NOW_MS = Date.parse("2026-11-27T10:00:00.000Z");
const NOW = NOW_MS / 1000;
const STALE = NOW - 5 * 60 - 1;

type Signing = "valid" | "wrong" | "missing";

/** One event as the provider writes it, and the id it names it by. */
interface Delivery {
  id: string;
  event: Record<string, unknown>;
}

interface SignedPost {
  headers: Record<string, string>;
  payload: string;
}

interface ProviderCase {
  name: "mailgun" | "sendgrid" | "resend";
  hardBounce(email: string, id: string): Delivery;
  complaint(email: string, id: string): Delivery;
  /** A temporary failure of the message `messageId`, reported as event `id`. */
  delayed(email: string, id: string, messageId: string): Delivery;
  /** An event the site does not act on (a delivery). */
  ignored(email: string, id: string): Delivery;
  /** The request as the provider sends it, signed at `at` (Unix seconds). */
  sign(delivery: Delivery, at: number, signing: Signing): SignedPost;
  /** The status the hard bounce sample gives. */
  hardStatus: string | null;
  /** A signed request's signature put on another body, as an attacker who saw it would. */
  withBodyOf(signed: SignedPost, other: SignedPost): SignedPost;
  /** What a signature on another body is refused as. */
  otherBodyRefusal: string;
}

const hmac = (key: string | Buffer, data: string | Buffer) =>
  createHmac("sha256", key).update(data);

// --- Mailgun: shapes as in Mailgun's "Webhook Payloads" docs -------------

const MAILGUN_KEY = randomBytes(16).toString("hex");

function mailgunEvent(email: string, id: string, fields: Record<string, unknown>) {
  return {
    id,
    timestamp: 1770920772.389832,
    "log-level": "info",
    envelope: { sender: BOUNCE_ADDRESS, targets: email, transport: "smtp" },
    flags: { "is-authenticated": true, "is-test-mode": false },
    message: {
      headers: {
        to: email,
        "message-id": `20261127100000.${id}@mail.firm.example`,
        from: "Insight <insight@firm.example>",
        subject: "Insight: November",
      },
      size: 4310,
    },
    recipient: email,
    "recipient-domain": email.split("@")[1],
    tags: [],
    "user-variables": {},
    ...fields,
  };
}

const mailgun: ProviderCase = {
  name: "mailgun",
  hardBounce: (email, id) => ({
    id,
    event: mailgunEvent(email, id, {
      event: "failed",
      severity: "permanent",
      reason: "bounce",
      "log-level": "error",
      "delivery-status": {
        "attempt-no": 1,
        code: 550,
        "enhanced-code": "5.1.1",
        description: "",
        message:
          "5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address for typos or unnecessary spaces.",
        "mx-host": "gmail-smtp-in.l.google.com",
        "session-seconds": 0.43,
        tls: true,
        utf8: true,
      },
    }),
  }),
  complaint: (email, id) => ({
    id,
    event: mailgunEvent(email, id, { event: "complained", "log-level": "warn" }),
  }),
  delayed: (email, id, messageId) => {
    const event = mailgunEvent(email, id, {
      event: "failed",
      severity: "temporary",
      reason: "generic",
      "log-level": "warn",
      "delivery-status": {
        "attempt-no": 3,
        code: 452,
        description: "4.2.2 The email account that you tried to reach is over quota.",
        message: "4.2.2 The email account that you tried to reach is over quota.",
        "retry-seconds": 1800,
      },
    });
    return { id, event: { ...event, message: { headers: { "message-id": messageId } } } };
  },
  ignored: (email, id) => ({
    id,
    event: mailgunEvent(email, id, {
      event: "delivered",
      "delivery-status": { code: 250, message: "OK", description: "" },
    }),
  }),
  sign: ({ event }, at, signing): SignedPost => {
    const token = randomBytes(25).toString("hex");
    const key = signing === "wrong" ? randomBytes(16).toString("hex") : MAILGUN_KEY;
    const signature = {
      token,
      timestamp: String(at),
      signature: hmac(key, `${at}${token}`).digest("hex"),
    };
    const body =
      signing === "missing" ? { "event-data": event } : { signature, "event-data": event };
    return { headers: {}, payload: JSON.stringify(body) };
  },
  hardStatus: "5.1.1",
  // The signature is in the body, over its timestamp and token alone.
  withBodyOf: (signed, other) => {
    const { signature } = JSON.parse(signed.payload) as { signature: unknown };
    const { "event-data": event } = JSON.parse(other.payload) as { "event-data": unknown };
    return { headers: {}, payload: JSON.stringify({ signature, "event-data": event }) };
  },
  otherBodyRefusal: WEBHOOK_REFUSALS.replayed,
};

// --- SendGrid: shapes as in SendGrid's "Event Webhook Reference" ----------

const sendgridKeys = () => generateKeyPairSync("ec", { namedCurve: "prime256v1" });
const SENDGRID = sendgridKeys();
const SENDGRID_PUBLIC_KEY = SENDGRID.publicKey
  .export({ format: "der", type: "spki" })
  .toString("base64");

/** A SendGrid batch's body, signed as SendGrid signs it. */
function sendgridBatch(
  payload: string,
  at = NOW,
  key: KeyObject = SENDGRID.privateKey,
): SignedPost {
  return {
    headers: {
      "x-twilio-email-event-webhook-signature": sign(
        "sha256",
        Buffer.from(`${at}${payload}`),
        key,
      ).toString("base64"),
      "x-twilio-email-event-webhook-timestamp": String(at),
    },
    payload,
  };
}

function sendgridEvent(email: string, id: string, fields: Record<string, unknown>) {
  return {
    email,
    timestamp: 1513299569,
    "smtp-id": `<${id}@ismtpd-555>`,
    category: "insight",
    sg_event_id: id,
    sg_message_id: `${id}.filter0001.16648.5515E0B88.0`,
    ...fields,
  };
}

const sendgrid: ProviderCase = {
  name: "sendgrid",
  hardBounce: (email, id) => ({
    id,
    event: sendgridEvent(email, id, {
      bounce_classification: "Invalid Address",
      event: "bounce",
      reason: "500 unknown recipient",
      status: "5.0.0",
      type: "bounce",
    }),
  }),
  complaint: (email, id) => ({ id, event: sendgridEvent(email, id, { event: "spamreport" }) }),
  delayed: (email, id, messageId) => ({
    id,
    event: sendgridEvent(email, id, {
      event: "deferred",
      response: "400 try again later",
      attempt: "5",
      sg_message_id: messageId,
    }),
  }),
  ignored: (email, id) => ({
    id,
    event: sendgridEvent(email, id, { event: "delivered", response: "250 OK" }),
  }),
  sign: ({ event }, at, signing): SignedPost => {
    const payload = JSON.stringify([event]);
    if (signing === "missing") return { headers: {}, payload };
    return sendgridBatch(
      payload,
      at,
      signing === "wrong" ? sendgridKeys().privateKey : SENDGRID.privateKey,
    );
  },
  hardStatus: "5.0.0",
  // The signature is in the headers, over the timestamp and the body.
  withBodyOf: (signed, other) => ({ headers: signed.headers, payload: other.payload }),
  otherBodyRefusal: WEBHOOK_REFUSALS.invalid,
};

// --- Resend: shapes as in Resend's webhook event type docs ----------------

const resendSecret = () => `whsec_${randomBytes(24).toString("base64")}`;
const RESEND_SECRET = resendSecret();

function resendEvent(email: string, type: string, data: Record<string, unknown> = {}) {
  return {
    type,
    created_at: "2026-11-27T10:00:00.126Z",
    data: {
      broadcast_id: "8b146471-e88e-4322-86af-016cd36fd216",
      created_at: "2026-11-27T09:59:58.894719+00:00",
      email_id: randomUUID(),
      from: "Insight <insight@firm.example>",
      to: [email],
      subject: "Insight: November",
      tags: { category: "insight" },
      ...data,
    },
  };
}

function svixSignature(secret: string, id: string, at: number, payload: string): string {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  return `v1,${hmac(key, `${id}.${at}.${payload}`).digest("base64")}`;
}

const resend: ProviderCase = {
  name: "resend",
  hardBounce: (email, id) => ({
    id,
    event: resendEvent(email, "email.bounced", {
      bounce: {
        message:
          "The recipient's email address is on the suppression list because it has a recent history of producing hard bounces.",
        subType: "Suppressed",
        type: "Permanent",
      },
    }),
  }),
  complaint: (email, id) => ({ id, event: resendEvent(email, "email.complained") }),
  delayed: (email, id, messageId) => ({
    id,
    event: resendEvent(email, "email.delivery_delayed", { email_id: messageId }),
  }),
  ignored: (email, id) => ({ id, event: resendEvent(email, "email.delivered") }),
  sign: ({ id, event }, at, signing): SignedPost => {
    const payload = JSON.stringify(event);
    if (signing === "missing") return { headers: {}, payload };
    const secret = signing === "wrong" ? resendSecret() : RESEND_SECRET;
    return {
      headers: {
        "svix-id": id,
        "svix-timestamp": String(at),
        "svix-signature": svixSignature(secret, id, at, payload),
      },
      payload,
    };
  },
  hardStatus: null,
  // The signature is in the headers, over the id, the timestamp and the body.
  withBodyOf: (signed, other) => ({ headers: signed.headers, payload: other.payload }),
  otherBodyRefusal: WEBHOOK_REFUSALS.invalid,
};

const PROVIDERS = [mailgun, sendgrid, resend];

// --- The server -------------------------------------------------------------

interface WebhookServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  logs: string[];
  /** Sets the server's clock (Unix seconds). */
  setClock(seconds: number): void;
  close(): Promise<void>;
}

/** The whole app, with its own database, the webhooks' keys in `env` and a clock of the test's. */
async function startWebhooks(
  engine: EngineCase,
  env: Record<string, string>,
): Promise<WebhookServer> {
  let clock = NOW_MS;
  const t = await startApp(
    engine,
    {
      BOUNCE_ADDRESS,
      UNSUBSCRIBE_SECRET: SECRET,
      // The public writes' limit is 1: a webhook answering twice shows it declares its own.
      RATE_LIMIT_PER_MINUTE: "1",
      ...env,
    },
    { withPages: false, now: () => clock },
  );
  return {
    app: t.app,
    database: t.database,
    logs: t.logs,
    setClock: (seconds) => {
      clock = seconds * 1000;
    },
    close: () => t.close(),
  };
}

const ALL_KEYS = {
  MAILGUN_WEBHOOK_SIGNING_KEY: MAILGUN_KEY,
  SENDGRID_WEBHOOK_PUBLIC_KEY: SENDGRID_PUBLIC_KEY,
  RESEND_WEBHOOK_SECRET: RESEND_SECRET,
};

function postTo(
  app: FastifyInstance,
  provider: string,
  { headers, payload }: SignedPost,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: "POST",
    url: `${WEBHOOKS_PATH}/${provider}`,
    headers: { "content-type": "application/json", ...headers },
    payload,
  });
}

const newAddress = (name: string) => `${name}-${randomBytes(4).toString("hex")}@example.com`;

describe.each(ENGINES)("delivery webhooks on $engine", (engine) => {
  let database: DatabaseHandle;
  let server: WebhookServer;

  beforeAll(async () => {
    server = await startWebhooks(engine, ALL_KEYS);
    database = server.database;
  });
  afterAll(() => server.close());

  const reportsOf = (email: string) =>
    database.db
      .selectFrom("delivery_reports")
      .select(["kind", "status", "source", "source_key", "outbox_id", "message_kind"])
      .where("email", "=", email)
      .orderBy("id")
      .execute();

  const suppressionOf = (email: string) =>
    database.db
      .selectFrom("suppressions")
      .select("reason")
      .where("email", "=", email)
      .executeTakeFirst();

  describe.each(PROVIDERS)("from $name", (provider) => {
    const post = (delivery: Delivery, at = NOW, signing: Signing = "valid") =>
      postTo(server.app, provider.name, provider.sign(delivery, at, signing));

    it("records a hard bounce and a complaint, and suppresses both addresses", async () => {
      const gone = newAddress("gone");
      const annoyed = newAddress("annoyed");
      const bounce = provider.hardBounce(gone, randomUUID());
      const complaint = provider.complaint(annoyed, randomUUID());

      const bounced = await post(bounce);
      expect(bounced.statusCode).toBe(200);
      expect(bounced.json()).toEqual({ recorded: 1 });
      expect((await post(complaint)).json()).toEqual({ recorded: 1 });

      expect(await reportsOf(gone)).toEqual([
        {
          kind: "hard",
          status: provider.hardStatus,
          source: `webhook:${provider.name}`,
          source_key: `${provider.name}:${bounce.id}`,
          outbox_id: null,
          message_kind: null,
        },
      ]);
      expect(await reportsOf(annoyed)).toEqual([
        {
          kind: "complaint",
          status: null,
          source: `webhook:${provider.name}`,
          source_key: `${provider.name}:${complaint.id}`,
          outbox_id: null,
          message_kind: null,
        },
      ]);
      expect(await suppressionOf(gone)).toEqual({ reason: "hard-bounce" });
      expect(await suppressionOf(annoyed)).toEqual({ reason: "complaint" });
    });

    it("records a delivery that arrives twice once", async () => {
      const gone = newAddress("twice");
      const bounce = provider.hardBounce(gone, randomUUID());
      expect((await post(bounce)).json()).toEqual({ recorded: 1 });
      const again = await post(bounce, NOW + 60);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ recorded: 0 });
      expect(await reportsOf(gone)).toHaveLength(1);
    });

    it("counts a message delayed again and again as one soft bounce", async () => {
      const full = newAddress("full");
      const messageId = randomUUID();
      const first = await post(provider.delayed(full, randomUUID(), messageId));
      const second = await post(provider.delayed(full, randomUUID(), messageId), NOW + 120);
      expect([first.json(), second.json()]).toEqual([{ recorded: 1 }, { recorded: 0 }]);
      expect(await reportsOf(full)).toEqual([
        expect.objectContaining({ kind: "soft", source_key: `${provider.name}:soft:${messageId}` }),
      ]);
      expect(await isSuppressed(database.db, full)).toBe(false);
    });

    it("refuses a wrong signature, a missing one and a stale timestamp with 401, and records nothing", async () => {
      const target = newAddress("target");
      const bounce = provider.hardBounce(target, randomUUID());
      const refusals = [
        await post(bounce, NOW, "wrong"),
        await post(bounce, NOW, "missing"),
        await post(bounce, STALE),
        await post(bounce, NOW + 5 * 60 + 1),
      ];
      expect(refusals.map((response) => [response.statusCode, response.json()])).toEqual([
        [401, { message: WEBHOOK_REFUSALS.invalid }],
        [401, { message: WEBHOOK_REFUSALS.missing }],
        [401, { message: WEBHOOK_REFUSALS.stale }],
        [401, { message: WEBHOOK_REFUSALS.stale }],
      ]);
      expect(await reportsOf(target)).toEqual([]);
      expect(await isSuppressed(database.db, target)).toBe(false);
    });

    it("refuses a signed request sent again, and its signature on another body naming another address", async () => {
      const gone = newAddress("first-use");
      const other = newAddress("replay-target");
      const signed = provider.sign(provider.hardBounce(gone, randomUUID()), NOW, "valid");
      const first = await postTo(server.app, provider.name, signed);
      expect([first.statusCode, first.json()]).toEqual([200, { recorded: 1 }]);

      const again = await postTo(server.app, provider.name, signed);
      const elsewhere = provider.sign(provider.hardBounce(other, randomUUID()), NOW, "valid");
      const onAnotherBody = await postTo(
        server.app,
        provider.name,
        provider.withBodyOf(signed, elsewhere),
      );
      expect([again.statusCode, again.json()]).toEqual([
        401,
        { message: WEBHOOK_REFUSALS.replayed },
      ]);
      expect([onAnotherBody.statusCode, onAnotherBody.json()]).toEqual([
        401,
        { message: provider.otherBodyRefusal },
      ]);
      expect(await reportsOf(gone)).toHaveLength(1);
      expect(await reportsOf(other)).toEqual([]);
      expect(await isSuppressed(database.db, other)).toBe(false);
    });

    it("takes exactly one of two requests racing with the same signature", async () => {
      const gone = newAddress("race");
      const signed = provider.sign(provider.hardBounce(gone, randomUUID()), NOW, "valid");
      const answers = await Promise.all([
        postTo(server.app, provider.name, signed),
        postTo(server.app, provider.name, signed),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401]);
      expect(await reportsOf(gone)).toHaveLength(1);
    });

    it("acknowledges an event it does not act on, and records nothing", async () => {
      const reader = newAddress("reader");
      const response = await post(provider.ignored(reader, randomUUID()));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ recorded: 0 });
      expect(await reportsOf(reader)).toEqual([]);
    });
  });

  describe("the envelope sender Mailgun passes back", () => {
    const queuedMessage = async (email: string) => {
      const now = new Date().toISOString();
      const { id } = await database.db
        .insertInto("outbox")
        .values({
          kind: "welcome",
          message: JSON.stringify({ messageId: "<w@firm.example>", to: email, subject: "Welcome" }),
          status: "sent",
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return id;
    };

    const bounceFrom = (email: string, sender: string) => {
      const delivery = mailgun.hardBounce(email, randomUUID());
      const event = { ...delivery.event, envelope: { sender, targets: email, transport: "smtp" } };
      return mailgun.sign({ ...delivery, event }, NOW, "valid");
    };

    it("ties the report to its message when it is our signed bounce address", async () => {
      const gone = newAddress("linked");
      const outboxId = await queuedMessage(gone);
      const sender = bounceAddressFor(BOUNCE_ADDRESS, SECRET, outboxId);
      expect((await postTo(server.app, "mailgun", bounceFrom(gone, sender))).json()).toEqual({
        recorded: 1,
      });
      expect(await reportsOf(gone)).toEqual([
        expect.objectContaining({ kind: "hard", outbox_id: outboxId, message_kind: "welcome" }),
      ]);
    });

    it("logs a forged token and records the report by its recipient alone", async () => {
      const gone = newAddress("forged");
      const outboxId = await queuedMessage(newAddress("someone-else"));
      const forged = bounceAddressFor(BOUNCE_ADDRESS, "not the server's secret", outboxId);
      const response = await postTo(server.app, "mailgun", bounceFrom(gone, forged));
      expect(response.json()).toEqual({ recorded: 1 });
      expect(await reportsOf(gone)).toEqual([
        expect.objectContaining({ kind: "hard", outbox_id: null, message_kind: null }),
      ]);
      expect(await isSuppressed(database.db, gone)).toBe(true);
      const warnings = server.logs
        .map((line) => JSON.parse(line) as { level: number; msg: string; envelopeSender?: string })
        .filter((entry) => entry.level === 40 && entry.msg.includes("forged"));
      // The log keeps the domain only: an address is personal data.
      expect(warnings).toEqual([
        expect.objectContaining({ envelopeSender: `***@${forged.split("@")[1]}` }),
      ]);
    });
  });

  it("refuses one Mailgun signature put on three more bodies, each naming another reader", async () => {
    // The finding: Mailgun signs the timestamp and token, not the body.
    const signed = mailgun.sign(mailgun.complaint(newAddress("seen"), randomUUID()), NOW, "valid");
    expect((await postTo(server.app, "mailgun", signed)).statusCode).toBe(200);
    const readers = [newAddress("taken-1"), newAddress("taken-2"), newAddress("taken-3")];
    for (const reader of readers) {
      const forged = mailgun.withBodyOf(
        signed,
        mailgun.sign(mailgun.complaint(reader, randomUUID()), NOW, "valid"),
      );
      const answer = await postTo(server.app, "mailgun", forged);
      expect([answer.statusCode, answer.json()]).toEqual([
        401,
        { message: WEBHOOK_REFUSALS.replayed },
      ]);
    }
    for (const reader of readers) expect(await isSuppressed(database.db, reader)).toBe(false);
  });

  describe("the bounds of a body, held before it is parsed", () => {
    it("refuses a body larger than 1 MB with 413", async () => {
      const events = JSON.stringify([
        sendgrid.ignored(newAddress("big"), "x".repeat(1_100_000)).event,
      ]);
      const answer = await postTo(server.app, "sendgrid", sendgridBatch(events));
      expect([answer.statusCode, answer.json()]).toEqual([
        413,
        { message: WEBHOOK_BOUND_REFUSALS.bytes },
      ]);
    });

    it("refuses a batch of more than 10,000 events with 413, and records none of them", async () => {
      const gone = newAddress("in-a-flood");
      const events = [
        sendgrid.hardBounce(gone, randomUUID()).event,
        ...Array.from({ length: WEBHOOK_BODY_LIMITS.items }, () => ({ event: "processed" })),
      ];
      const answer = await postTo(server.app, "sendgrid", sendgridBatch(JSON.stringify(events)));
      expect([answer.statusCode, answer.json()]).toEqual([
        413,
        { message: WEBHOOK_BOUND_REFUSALS.items },
      ]);
      expect(await reportsOf(gone)).toEqual([]);
    });

    it("refuses a body nested deeper than 20 levels with 400", async () => {
      const gone = newAddress("deep");
      const event = {
        ...sendgrid.hardBounce(gone, randomUUID()).event,
        category: JSON.parse(`${"[".repeat(25)}${"]".repeat(25)}`),
      };
      const answer = await postTo(server.app, "sendgrid", sendgridBatch(JSON.stringify([event])));
      expect([answer.statusCode, answer.json()]).toEqual([
        400,
        { message: WEBHOOK_BOUND_REFUSALS.depth },
      ]);
      expect(await reportsOf(gone)).toEqual([]);
    });

    it("refuses a value longer than 32 KB with 413, and takes one just under it", async () => {
      const long = newAddress("long-words");
      const event = (reason: string) => ({
        ...sendgrid.hardBounce(long, randomUUID()).event,
        reason,
      });
      const over = await postTo(
        server.app,
        "sendgrid",
        sendgridBatch(JSON.stringify([event("5".repeat(32 * 1024 + 1))])),
      );
      expect([over.statusCode, over.json()]).toEqual([
        413,
        { message: WEBHOOK_BOUND_REFUSALS.stringBytes },
      ]);
      expect(await reportsOf(long)).toEqual([]);
      const under = await postTo(
        server.app,
        "sendgrid",
        sendgridBatch(JSON.stringify([event("5".repeat(32 * 1024))])),
      );
      expect(under.json()).toEqual({ recorded: 1 });
    });
  });

  it("forgets a signature once its timestamp could no longer pass", async () => {
    const clocked = await startWebhooks(engine, ALL_KEYS);
    try {
      const remembered = () =>
        clocked.database.db.selectFrom("provider_signatures").select("expires_at").execute();
      const first = mailgun.sign(mailgun.complaint(newAddress("kept"), randomUUID()), NOW, "valid");
      expect((await postTo(clocked.app, "mailgun", first)).statusCode).toBe(200);
      expect(await remembered()).toHaveLength(1);
      // Twenty minutes on, a signature from then is stale, and the next one taken forgets it.
      const later = NOW + 20 * 60;
      clocked.setClock(later);
      expect((await postTo(clocked.app, "mailgun", first)).json()).toEqual({
        message: WEBHOOK_REFUSALS.stale,
      });
      const next = mailgun.sign(
        mailgun.complaint(newAddress("next"), randomUUID()),
        later,
        "valid",
      );
      expect((await postTo(clocked.app, "mailgun", next)).statusCode).toBe(200);
      expect(await remembered()).toEqual([
        { expires_at: expect.stringMatching(/^2026-11-27T10:30:00/) },
      ]);
    } finally {
      await clocked.close();
    }
  });

  it("answers 400 to a signed body it cannot read, and records nothing", async () => {
    const gone = newAddress("unreadable");
    const delivery = sendgrid.hardBounce(gone, randomUUID());
    const { email: _email, ...withoutAddress } = delivery.event;
    const signed = sendgrid.sign({ ...delivery, event: withoutAddress }, NOW, "valid");
    const response = await postTo(server.app, "sendgrid", signed);
    expect([response.statusCode, response.json()]).toEqual([
      400,
      { message: UNREADABLE_WEBHOOK_MESSAGE },
    ]);
    expect(await reportsOf(gone)).toEqual([]);
  });

  it("answers 415 to a body that is not JSON", async () => {
    const response = await server.app.inject({
      method: "POST",
      url: `${WEBHOOKS_PATH}/mailgun`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "event=failed&recipient=someone%40example.com",
    });
    expect(response.statusCode).toBe(415);
  });

  it("records each report of a SendGrid batch, and leaves out the rest", async () => {
    const [gone, annoyed, reader] = [newAddress("b-gone"), newAddress("b-spam"), newAddress("b")];
    const events = [
      sendgrid.hardBounce(gone, randomUUID()).event,
      sendgrid.ignored(reader, randomUUID()).event,
      sendgrid.complaint(annoyed, randomUUID()).event,
    ];
    const response = await postTo(server.app, "sendgrid", sendgridBatch(JSON.stringify(events)));
    expect(response.json()).toEqual({ recorded: 2 });
    expect(await isSuppressed(database.db, gone)).toBe(true);
    expect(await isSuppressed(database.db, annoyed)).toBe(true);
    expect(await reportsOf(reader)).toEqual([]);
  });

  it("declares its own rate limit and needs no XSRF token", () => {
    const routes = server.app.writeRoutes.filter((route) => route.url.startsWith(WEBHOOKS_PATH));
    expect(routes.map((route) => [route.url, route.own])).toEqual(
      PROVIDERS.map(({ name }) => [`${WEBHOOKS_PATH}/${name}`, true]),
    );
    // Every post above came without a cookie or an XSRF header.
  });

  it("answers 404 for a provider whose key is unset", async () => {
    const mailgunOnly = await startWebhooks(engine, {
      MAILGUN_WEBHOOK_SIGNING_KEY: MAILGUN_KEY,
    });
    try {
      const gone = newAddress("unrouted");
      for (const provider of [sendgrid, resend]) {
        const signed = provider.sign(provider.hardBounce(gone, randomUUID()), NOW, "valid");
        const response = await postTo(mailgunOnly.app, provider.name, signed);
        expect([response.statusCode, response.json()]).toEqual([
          404,
          { message: UNCONFIGURED_WEBHOOK_MESSAGE },
        ]);
      }
      const recorded = await mailgunOnly.database.db
        .selectFrom("delivery_reports")
        .select("id")
        .where("email", "=", gone)
        .execute();
      expect(recorded).toEqual([]);
    } finally {
      await mailgunOnly.close();
    }
  });

  describe("the providers' published test vectors", () => {
    // From the tests of SendGrid's own Node library (@sendgrid/eventwebhook).
    const SENDGRID_VECTOR = {
      publicKey:
        "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEEDr2LjtURuePQzplybdC+u4CwrqDqBaWjcMMsTbhdbcwHBcepxo7yAQGhHPTnlvFYPAZFceEu/1FwCM/QmGUhA==",
      signature:
        "MEUCIQCtIHJeH93Y+qpYeWrySphQgpNGNr/U+UyUlBkU6n7RAwIgJTz2C+8a8xonZGi6BpSzoQsbVRamr2nlxFDWYNH2j/0=",
      timestamp: 1588788367,
      payload: JSON.stringify({
        category: "example_payload",
        event: "test_event",
        message_id: "message_id",
      }),
    };
    // From the Standard Webhooks specification, which Svix (Resend's sender) implements.
    const SVIX_VECTOR = {
      secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
      timestamp: 1614265330,
      payload: '{"test": 2432232314}',
      signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    };

    let vectors: WebhookServer;
    beforeAll(async () => {
      vectors = await startWebhooks(engine, {
        SENDGRID_WEBHOOK_PUBLIC_KEY: SENDGRID_VECTOR.publicKey,
        RESEND_WEBHOOK_SECRET: SVIX_VECTOR.secret,
      });
    });
    afterAll(() => vectors.close());

    const sendgridVector = (payload: string) =>
      postTo(vectors.app, "sendgrid", {
        headers: {
          "x-twilio-email-event-webhook-signature": SENDGRID_VECTOR.signature,
          "x-twilio-email-event-webhook-timestamp": String(SENDGRID_VECTOR.timestamp),
        },
        payload,
      });
    const svixVector = (payload: string) =>
      postTo(vectors.app, "resend", {
        headers: {
          "svix-id": SVIX_VECTOR.id,
          "svix-timestamp": String(SVIX_VECTOR.timestamp),
          "svix-signature": SVIX_VECTOR.signature,
        },
        payload,
      });

    // Each vector signs a body that is no report: getting past the signature
    // to "cannot read" (400) is what shows the signature held.
    it("accepts SendGrid's signature, and refuses its body altered", async () => {
      vectors.setClock(SENDGRID_VECTOR.timestamp);
      expect((await sendgridVector(SENDGRID_VECTOR.payload)).statusCode).toBe(400);
      expect(
        (await sendgridVector(SENDGRID_VECTOR.payload.replace("test", "best"))).json(),
      ).toEqual({ message: WEBHOOK_REFUSALS.invalid });
    });

    it("accepts Svix's signature, and refuses its body altered", async () => {
      vectors.setClock(SVIX_VECTOR.timestamp);
      expect((await svixVector(SVIX_VECTOR.payload)).statusCode).toBe(400);
      expect((await svixVector(SVIX_VECTOR.payload.replace("2", "3"))).json()).toEqual({
        message: WEBHOOK_REFUSALS.invalid,
      });
    });
  });
});

describe("a webhook body's bounds", () => {
  const bytes = (text: string) => Buffer.from(text);
  const within = (body: Buffer) => {
    expect(jsonBoundRefusal(body)).toBeNull();
  };

  it("are checked in time in step with the body, however it is written", async () => {
    // Sizes whose larger body is still within every bound: a refusal would
    // end the scan early and measure nothing.
    await expectLinear((size) => bytes(`["${'\\"'.repeat(size)}"]`), within, 4_000);
    await expectLinear((size) => bytes(`[${'{"k":["v",1]},'.repeat(size)}0]`), within, 2_000);
    await expectLinear((size) => bytes(`[${'["a","b",{"c":"d"}],'.repeat(size)}0]`), within, 2_000);
  });
});
