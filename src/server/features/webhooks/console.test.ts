/**
 * The console's webhooks on a server that keeps webhooks out of private
 * networks (the default): owners only; an address aimed at a loopback,
 * private, link-local, CGNAT or reserved range refused on save with a clear
 * message, and a name that resolves to one refused at delivery; the secret
 * shown once, on demand and rotated; each change audited in its own
 * transaction, never with the secret; delivered rows purged after their
 * keeping; and a failing webhook queue never failing the write. On both engines.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  lastAuditId,
  openSession,
  post,
  startApp,
  type TestApp,
} from "../../../../test/support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../../../test/support/console.ts";
import { ENGINES } from "../../../../test/support/engines.ts";
import { VALID_INQUIRY } from "../../../../test/support/fixtures.ts";
import { startReceiver, type WebhookReceiver } from "../../../../test/support/webhook-receiver.ts";
import {
  type DeliveryView,
  WEBHOOK_ROUTES,
  WEBHOOK_TEXTS,
  webhookPath,
} from "../../../shared/admin/webhooks.ts";
import { addressRefusal, isBlockedAddress } from "./addresses.ts";
import { purgeDeliveries } from "./queue.ts";

const WAIT = { timeout: 10_000, interval: 25 };

const VALID = {
  name: "Sales channel",
  url: "https://hooks.slack.example/services/T0/B0/x",
  events: ["inquiry.received"],
  format: "slack",
  enabled: true,
};

/** Addresses inside a network, each as an owner might type it. */
const PRIVATE_URLS = [
  "http://127.0.0.1/hook",
  "http://127.1/hook",
  "http://2130706433/hook",
  "http://10.1.2.3/hook",
  "http://172.16.0.1/hook",
  "http://172.31.255.254/hook",
  "http://192.168.1.10/hook",
  "http://169.254.169.254/latest/meta-data",
  "http://100.64.0.1/hook",
  "http://0.0.0.0/hook",
  "http://224.0.0.1/hook",
  "http://[::1]/hook",
  "http://[::]/hook",
  "http://[fc00::1]/hook",
  "http://[fd12:3456::1]/hook",
  "http://[fe80::1]/hook",
  "http://[::ffff:127.0.0.1]/hook",
  "http://[::ffff:10.0.0.1]/hook",
  "http://[64:ff9b::a9fe:a9fe]/hook",
  "http://localhost:8080/hook",
  "http://api.localhost/hook",
];

describe("the address rules", () => {
  const strict = { allowPrivate: false, production: false };
  it.each(PRIVATE_URLS)("refuses %s", (url) => {
    expect(addressRefusal(url, strict)).toMatch(/cannot be aimed inside the firm's network/);
  });
  it.each([
    "https://hooks.slack.com/services/T0/B0/x",
    "https://8.8.8.8/hook",
    "https://[2606:4700:4700::1111]/hook",
    "https://172.32.0.1/hook",
    "https://100.128.0.1/hook",
  ])("takes %s", (url) => {
    expect(addressRefusal(url, strict)).toBeNull();
  });
  it("takes only https in production, unless private addresses are allowed", () => {
    const production = { allowPrivate: false, production: true };
    expect(addressRefusal("http://hooks.firm.example/x", production)).toBe(WEBHOOK_TEXTS.httpsOnly);
    expect(addressRefusal("https://hooks.firm.example/x", production)).toBeNull();
    expect(
      addressRefusal("http://10.0.0.5/x", { allowPrivate: true, production: true }),
    ).toBeNull();
  });
  it("refuses other schemes, credentials and what is not an address", () => {
    expect(addressRefusal("ftp://files.firm.example/", strict)).toBe(WEBHOOK_TEXTS.httpOrHttps);
    expect(addressRefusal("https://user:pw@hooks.firm.example/", strict)).toBe(
      WEBHOOK_TEXTS.urlCredentials,
    );
    expect(addressRefusal("hooks.firm.example", strict)).toBe(WEBHOOK_TEXTS.urlInvalid);
  });
});

/**
 * The IPv6 ranges that carry an IPv4 address or lead to one through a
 * translator or a tunnel, each in every spelling an address arrives in
 * (a resolver's answer, a typed address): refused whatever IPv4 address
 * they carry, a public one included (ADR 061).
 */
const TRANSLATION_SPELLINGS = [
  // IPv4-mapped, ::ffff:0:0/96
  "::ffff:127.0.0.1",
  "::ffff:7f00:1",
  "::FFFF:7F00:1",
  "0:0:0:0:0:ffff:7f00:1",
  "0000:0000:0000:0000:0000:FFFF:7F00:0001",
  "::ffff:8.8.8.8",
  "::ffff:808:808",
  "[::ffff:808:808]",
  // IPv4-translated, ::ffff:0:0:0/96
  "::ffff:0:8.8.8.8",
  "::ffff:0:808:808",
  "0:0:0:0:ffff:0:7f00:1",
  "::FFFF:0:A9FE:A9FE",
  // NAT64, 64:ff9b::/96 and the local-use 64:ff9b:1::/48
  "64:ff9b::8.8.8.8",
  "64:ff9b::808:808",
  "0064:FF9B:0000:0000:0000:0000:0808:0808",
  "64:ff9b:1::808:808",
  "64:ff9b:1:ab:cd::1",
  "64:FF9B:1::8.8.8.8",
  // Teredo, 2001::/32
  "2001:0:4136:e378:8000:63bf:3fff:fdd2",
  "2001::1",
  "2001:0000:0000:0000:0000:0000:0000:0001",
  // 6to4, 2002::/16
  "2002:808:808::1",
  "2002:7f00:1::1",
  "2002:C0A8:0101:0000:0000:0000:0000:0001",
  // IPv4-compatible, ::/96
  "::8.8.8.8",
  "::808:808",
  "0:0:0:0:0:0:808:808",
  "::127.0.0.1",
  // Zone ids, as a resolver may give a link's address
  "fe80::1%eth0",
  "64:ff9b::808:808%eth0",
  "::ffff:8.8.8.8%1",
];

describe("the IPv6 ranges that lead to IPv4", () => {
  const strict = { allowPrivate: false, production: false };
  it.each(TRANSLATION_SPELLINGS)("refuses %s at delivery", (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });
  it.each([
    "http://[::ffff:808:808]/hook",
    "http://[0:0:0:0:0:FFFF:7F00:1]/hook",
    "http://[::ffff:0:808:808]/hook",
    "http://[64:ff9b::8.8.8.8]/hook",
    "http://[64:ff9b:1::808:808]/hook",
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook",
    "http://[2002:808:808::1]/hook",
    "http://[::808:808]/hook",
  ])("refuses %s when saved", (url) => {
    expect(addressRefusal(url, strict)).toMatch(/cannot be aimed inside the firm's network/);
  });
  it.each([
    "8.8.8.8",
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "2A00:1450:4001:0829:0000:0000:0000:200E",
    "[2606:4700:4700::1111]",
  ])("takes the public address %s", (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });
});

describe.each(ENGINES)("the console's webhooks on $engine", (engine) => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let owner: ConsoleClient;
  let editor: ConsoleClient;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await startApp(engine, { WEBHOOK_POLL_MS: "50" });
    await createAccount(t.database, "owner");
    await createAccount(t.database, "editor");
    owner = await signIn(t.app, "owner@firm.example");
    editor = await signIn(t.app, "editor@firm.example");
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  /** The webhooks' audit entries, only those after entry `after` when given. */
  async function audit(after = 0) {
    return t.database.db
      .selectFrom("audit_log")
      .select(["action", "target", "detail"])
      .where("action", "like", "webhook-%")
      .where("id", ">", after)
      .orderBy("id")
      .execute();
  }

  it("is for owners only", async () => {
    // The other tests here add webhooks in the same database, in any order:
    // only what the editor's requests might have written counts.
    const before = await lastAuditId(t.database);
    expect((await editor.request("GET", WEBHOOK_ROUTES.list)).statusCode).toBe(403);
    expect((await editor.request("POST", WEBHOOK_ROUTES.list, VALID)).statusCode).toBe(403);
    expect(await audit(before)).toEqual([]);
  });

  it.each(PRIVATE_URLS)("refuses %s on save with a clear message, storing nothing", async (url) => {
    const response = await owner.request("POST", WEBHOOK_ROUTES.list, { ...VALID, url });
    expect(response.statusCode).toBe(400);
    const body = response.json() as { message: string; fields: { url: string } };
    expect(body.message).toMatch(/cannot be aimed inside the firm's network/);
    expect(body.fields.url).toBe(body.message);
    const count = await t.database.db
      .selectFrom("webhook_endpoints")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("url", "=", url)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it("refuses a change to a private address too", async () => {
    const added = await owner.request("POST", WEBHOOK_ROUTES.list, VALID);
    const { webhook } = added.json() as { webhook: { id: number } };
    const changed = await owner.request("PUT", webhookPath.one(webhook.id), {
      ...VALID,
      url: "http://192.168.0.1/",
    });
    expect(changed.statusCode).toBe(400);
    const kept = await owner.request("GET", WEBHOOK_ROUTES.list);
    expect(JSON.stringify(kept.json())).toContain(VALID.url);
    await owner.request("DELETE", webhookPath.one(webhook.id));
  });

  it("shows the secret once, on demand and rotated, and audits each change without it", async () => {
    const added = await owner.request("POST", WEBHOOK_ROUTES.list, VALID);
    expect(added.statusCode).toBe(201);
    const { webhook, secret } = added.json() as { webhook: { id: number }; secret: string };
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(JSON.stringify((await owner.request("GET", WEBHOOK_ROUTES.list)).json())).not.toContain(
      secret,
    );
    const shown = await owner.request("GET", webhookPath.secret(webhook.id));
    expect(shown.json()).toEqual({ secret });
    expect(shown.headers["cache-control"]).toBe("no-store");
    expect((await editor.request("GET", webhookPath.secret(webhook.id))).statusCode).toBe(403);

    const rotated = await owner.request("POST", webhookPath.rotate(webhook.id));
    const fresh = (rotated.json() as { secret: string }).secret;
    expect(fresh).not.toBe(secret);
    expect((await owner.request("GET", webhookPath.secret(webhook.id))).json()).toEqual({
      secret: fresh,
    });

    const changed = await owner.request("PUT", webhookPath.one(webhook.id), {
      ...VALID,
      enabled: false,
      events: ["subscriber.created", "inquiry.received"],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      enabled: false,
      events: ["inquiry.received", "subscriber.created"],
    });
    expect((await owner.request("DELETE", webhookPath.one(webhook.id))).statusCode).toBe(200);
    expect((await owner.request("DELETE", webhookPath.one(webhook.id))).statusCode).toBe(404);

    const entries = (await audit()).filter((entry) => entry.target === `webhook:${webhook.id}`);
    expect(entries.map((entry) => entry.action)).toEqual([
      "webhook-added",
      "webhook-secret-shown",
      "webhook-secret-rotated",
      "webhook-secret-shown",
      "webhook-changed",
      "webhook-removed",
    ]);
    const written = JSON.stringify(entries);
    expect(written).not.toContain(secret);
    expect(written).not.toContain(fresh);
  });

  it("refuses at delivery a name that resolves to a loopback address", async () => {
    // Saved as a name: only its resolution can tell where it leads, so it is
    // put straight in the table as if it had resolved elsewhere when saved.
    const now = new Date().toISOString();
    const { id } = await t.database.db
      .insertInto("webhook_endpoints")
      .values({
        name: "Rebinding",
        url: receiver.url("/rebinding").replace("127.0.0.1", "localhost"),
        events: JSON.stringify(["inquiry.received"]),
        format: "json",
        enabled: 1,
        secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const queued = await owner.request("POST", webhookPath.test(id));
    expect(queued.statusCode).toBe(202);
    await vi.waitFor(async () => {
      const log = await owner.request("GET", webhookPath.deliveries(id));
      const [delivery] = (log.json() as { deliveries: DeliveryView[] }).deliveries;
      expect(delivery?.state).toBe("failed");
      expect(delivery?.attempts).toBe(1);
      expect(delivery?.answers[0]?.error).toMatch(
        /^localhost resolved to (127\.0\.0\.1|::1), a loopback, private or reserved address/,
      );
    }, WAIT);
    expect(receiver.received("/rebinding")).toEqual([]);
  });

  it("purges delivered and failed rows past their keeping, never pending ones", async () => {
    const added = await owner.request("POST", WEBHOOK_ROUTES.list, VALID);
    const { webhook } = added.json() as { webhook: { id: number } };
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const rows = (["delivered", "failed", "pending"] as const).map((status, n) => ({
      endpoint_id: webhook.id,
      event: "inquiry.received",
      webhook_id: `msg_purge_${engine.engine}_${n}`,
      payload: "{}",
      status,
      next_attempt_at: "9999-12-31T00:00:00.000Z",
      created_at: old,
      updated_at: old,
    }));
    await t.database.db.insertInto("webhook_deliveries").values(rows).execute();
    const removed = await purgeDeliveries(t.database.db, new Date(Date.now() - 30 * 86_400_000));
    expect(removed).toBe(2);
    const left = await t.database.db
      .selectFrom("webhook_deliveries")
      .select("status")
      .where("webhook_id", "like", `msg_purge_${engine.engine}_%`)
      .execute();
    expect(left).toEqual([{ status: "pending" }]);
  });

  it("erasing a person removes the deliveries about them", async () => {
    const added = await owner.request("POST", WEBHOOK_ROUTES.list, {
      ...VALID,
      url: "https://hooks.firm.example/erasure",
      events: ["inquiry.received", "subscriber.created"],
      format: "json",
    });
    const { webhook } = added.json() as { webhook: { id: number } };
    const visitor = await openSession(t.app);
    const address = "Erase.Me@Example.com";
    await post(t.app, visitor, `/api/v1/subscribe?emailId=${encodeURIComponent(address)}`);
    const inquiry = await post(t.app, visitor, "/api/v1/send-comment", {
      ...VALID_INQUIRY,
      email: address,
    });
    const about = () =>
      t.database.db
        .selectFrom("webhook_deliveries")
        .select("event")
        .where("address", "=", address.toLowerCase())
        .where("endpoint_id", "=", webhook.id)
        .orderBy("event")
        .execute();
    expect(await about()).toEqual([{ event: "inquiry.received" }, { event: "subscriber.created" }]);
    const subscriber = await t.database.db
      .selectFrom("subscriptions")
      .select("id")
      .where("email", "=", address.toLowerCase())
      .executeTakeFirstOrThrow();
    const erased = await owner.request("DELETE", `/api/admin/subscribers/${subscriber.id}`, {
      email: address.toLowerCase(),
    });
    expect(erased.statusCode, erased.body).toBe(204);
    expect(await about()).toEqual([{ event: "inquiry.received" }]);
    const { id } = inquiry.json() as { id: number };
    const gone = await owner.request("DELETE", `/api/admin/inquiries/${id}`, {
      email: address.toLowerCase(),
    });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await about()).toEqual([]);
  });

  it("stores the write even when the webhook queue cannot take its event", async () => {
    // An endpoint that hears the event, and the deliveries' table gone from under the queue.
    await owner.request("POST", WEBHOOK_ROUTES.list, {
      ...VALID,
      url: "https://hooks.firm.example/",
    });
    const visitor = await openSession(t.app);
    await sql`alter table webhook_deliveries rename to webhook_deliveries_kept`.execute(
      t.database.db,
    );
    try {
      const stored = await post(t.app, visitor, "/api/v1/send-comment", VALID_INQUIRY);
      expect(stored.statusCode, stored.body).toBe(200);
      const { id } = stored.json() as { id: number };
      const inquiry = await t.database.db
        .selectFrom("inquiries")
        .select("id")
        .where("id", "=", id)
        .executeTakeFirst();
      expect(inquiry).toEqual({ id });
      expect(t.logs.join("")).toContain("webhook deliveries could not be queued");
    } finally {
      await sql`alter table webhook_deliveries_kept rename to webhook_deliveries`.execute(
        t.database.db,
      );
    }
  });
});
