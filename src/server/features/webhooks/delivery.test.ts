/**
 * Outgoing webhooks delivered to a real receiver on the loopback (the
 * server allows private addresses here, as for a tool on the firm's own
 * network): each event once, signed so the Standard Webhooks library
 * verifies it; a 500, a hang and a receiver that is down retried with the
 * same webhook-id; a final 4xx not retried; the write that caused an event
 * never held back or failed by its delivery; two instances delivering each
 * row once; a receiver that holds its requests unanswered never delaying
 * another's delivery. On both engines.
 */
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  openSession,
  post,
  type Session,
  startApp,
  type TestApp,
} from "../../../../test/support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../../../test/support/console.ts";
import { ENGINES } from "../../../../test/support/engines.ts";
import { VALID_INQUIRY } from "../../../../test/support/fixtures.ts";
import { addSubscribers, scheduleIssue } from "../../../../test/support/newsletter.ts";
import { confirmToken, unsubscribeToken } from "../../../../test/support/subscription-links.ts";
import {
  closedPortUrl,
  startReceiver,
  type WebhookReceiver,
} from "../../../../test/support/webhook-receiver.ts";
import { SUBSCRIBER_ROUTES } from "../../../shared/admin/subscribers.ts";
import {
  type DeliveryView,
  WEBHOOK_EVENTS,
  WEBHOOK_ROUTES,
  type WebhookSave,
  webhookPath,
} from "../../../shared/admin/webhooks.ts";
import { inTransaction } from "../../platform/db/transaction.ts";
import { DELIVERIES_IN_FLIGHT, queueDeliveries } from "./queue.ts";

const SECRET = "a-test-signing-secret-of-at-least-32-characters";

/** Short waits, so the retries a test asks for come within it; private addresses allowed. */
const ENV = {
  WEBHOOKS_ALLOW_PRIVATE: "true",
  WEBHOOK_POLL_MS: "50",
  WEBHOOK_RETRY_BASE_MS: "20",
  WEBHOOK_RETRY_MAX_MS: "40",
  // Long enough for a receiver in this very process on a busy machine; the hang test waits it out.
  WEBHOOK_TIMEOUT_MS: "2000",
  WEBHOOK_MAX_ATTEMPTS: "4",
  OUTBOX_POLL_MS: "50",
  UNSUBSCRIBE_SECRET: SECRET,
  METRICS_TOKEN: "webhook-metrics-token-of-at-least-32-characters",
};

const WAIT = { timeout: 10_000, interval: 25 };

interface GenericBody {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** An owner adds an endpoint for `path` on the receiver (or at `changes.url`), hearing every event. */
async function addEndpointFor(
  owner: ConsoleClient,
  receiver: WebhookReceiver,
  path: string,
  changes: Partial<WebhookSave> = {},
): Promise<{ id: number; secret: string; url: string }> {
  const url = changes.url ?? receiver.url(path);
  const response = await owner.request("POST", WEBHOOK_ROUTES.list, {
    name: `Receiver ${path}`,
    url,
    events: [...WEBHOOK_EVENTS],
    format: "json",
    enabled: true,
    ...changes,
  });
  expect(response.statusCode, response.body).toBe(201);
  const { webhook, secret } = response.json() as { webhook: { id: number }; secret: string };
  return { id: webhook.id, secret, url };
}

/** The console's log of an endpoint's deliveries, newest first. */
async function deliveryLog(owner: ConsoleClient, id: number): Promise<DeliveryView[]> {
  const response = await owner.request("GET", webhookPath.deliveries(id));
  expect(response.statusCode).toBe(200);
  return (response.json() as { deliveries: DeliveryView[] }).deliveries;
}

describe.each(ENGINES)("outgoing webhooks on $engine", (engine) => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  let owner: ConsoleClient;
  let visitor: Session;

  const addEndpoint = (path: string, changes: Partial<WebhookSave> = {}) =>
    addEndpointFor(owner, receiver, path, changes);
  const log = (id: number) => deliveryLog(owner, id);

  /** Verifies a request's signature with the library, as a receiver would; its body. */
  function verified(secret: string, hook: { headers: Record<string, unknown>; body: string }) {
    const headers = {
      "webhook-id": String(hook.headers["webhook-id"]),
      "webhook-timestamp": String(hook.headers["webhook-timestamp"]),
      "webhook-signature": String(hook.headers["webhook-signature"]),
    };
    return new Webhook(secret).verify(hook.body, headers) as GenericBody;
  }

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await startApp(engine, ENV);
    await createAccount(t.database, "owner");
    owner = await signIn(t.app, "owner@firm.example");
    visitor = await openSession(t.app);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it("tells of each event once, signed so the Standard Webhooks library verifies it", async () => {
    const { secret } = await addEndpoint("/all");
    const slack = await addEndpoint("/slack", { format: "slack", events: ["inquiry.received"] });

    const inquiry = await post(t.app, visitor, "/api/v1/send-comment", VALID_INQUIRY);
    expect(inquiry.statusCode, inquiry.body).toBe(200);
    const subscribed = await post(t.app, visitor, "/api/v1/subscribe?emailId=new%40example.com");
    expect(subscribed.statusCode, subscribed.body).toBe(201);

    const [pendingAddress] = await addSubscribers(t.database, "pending", 1, { confirmed: false });
    const pending = await t.database.db
      .selectFrom("subscriptions")
      .select(["id", "email", "subscribed_at"])
      .where("email", "=", pendingAddress ?? "")
      .executeTakeFirstOrThrow();
    const confirmed = await post(t.app, visitor, "/api/v1/subscribe/confirm", {
      token: await confirmToken(t, pending.id),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    // Unsubscribing by the page's link, a mail program's one-click and the console.
    const leavers = await addSubscribers(t.database, "leaver", 3);
    const rows = await t.database.db
      .selectFrom("subscriptions")
      .select(["id", "email", "subscribed_at"])
      .where("email", "in", leavers)
      .orderBy("email")
      .execute();
    const tokenOf = (row: (typeof rows)[number]) => unsubscribeToken(t, row.id);
    const [byLink, byOneClick, byConsole] = rows;
    if (!byLink || !byOneClick || !byConsole) throw new Error("three leavers were not added");
    expect(
      (await post(t.app, visitor, "/api/v1/unsubscribe", { token: await tokenOf(byLink) }))
        .statusCode,
    ).toBe(200);
    const oneClick = await t.app.inject({
      method: "POST",
      url: `/unsubscribe?token=${await tokenOf(byOneClick)}`,
      payload: "List-Unsubscribe=One-Click",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
    const consoleEnd = await owner.request(
      "POST",
      SUBSCRIBER_ROUTES.unsubscribe.replace(":id", String(byConsole.id)),
    );
    expect(consoleEnd.statusCode, consoleEnd.body).toBe(200);
    // A second unsubscribe of the same address changes nothing, and tells nothing.
    await post(t.app, visitor, "/api/v1/unsubscribe", { token: await tokenOf(byLink) });

    const issue = await scheduleIssue(t.database, "webhook-send", 1000);

    const expected = [
      "inquiry.received",
      "subscriber.created",
      "subscriber.confirmed",
      "subscriber.unsubscribed",
      "subscriber.unsubscribed",
      "subscriber.unsubscribed",
      "newsletter.sent",
    ];
    const distinctIds = () =>
      new Set(receiver.received("/all").map((hook) => hook.headers["webhook-id"]));
    await vi.waitFor(
      () => expect(distinctIds().size).toBeGreaterThanOrEqual(expected.length),
      WAIT,
    );
    const bodies = receiver.received("/all").map((hook) => verified(secret, hook));
    expect(bodies.map((body) => body.type).sort()).toEqual([...expected].sort());
    expect(distinctIds().size).toBe(expected.length);
    const byType = (type: string) => bodies.filter((body) => body.type === type);
    expect(byType("inquiry.received")[0]?.data).toMatchObject({
      firstName: "Grace",
      email: VALID_INQUIRY.email,
    });
    expect(byType("subscriber.created")[0]?.data).toMatchObject({
      email: "new@example.com",
      confirmed: true,
    });
    expect(byType("subscriber.confirmed")[0]?.data).toMatchObject({ id: pending.id });
    expect(byType("subscriber.unsubscribed").map((body) => body.data.via)).toEqual(
      expect.arrayContaining(["unsubscribe page", "one-click", "console"]),
    );
    expect(byType("newsletter.sent")[0]?.data).toMatchObject({
      id: issue.id,
      slug: "webhook-send",
    });

    // The Slack-compatible body: one readable sentence, signed alike.
    await vi.waitFor(() => expect(receiver.received("/slack")).toHaveLength(1), WAIT);
    const [slackHook] = receiver.received("/slack");
    if (!slackHook) throw new Error("no Slack body");
    const text = (verified(slack.secret, slackHook) as unknown as { text: string }).text;
    expect(text).toMatch(/^New inquiry from Grace Hopper \(Harvard Computation Lab\)/);
  });

  it("retries a 500 and delivers with the same webhook-id, the log showing both answers", async () => {
    const { id, secret } = await addEndpoint("/flaky", { events: ["inquiry.received"] });
    receiver.script("/flaky", [500]);
    await post(t.app, visitor, "/api/v1/send-comment", VALID_INQUIRY);
    await vi.waitFor(() => expect(receiver.received("/flaky")).toHaveLength(2), WAIT);
    const [first, second] = receiver.received("/flaky");
    expect(first?.headers["webhook-id"]).toBe(second?.headers["webhook-id"]);
    if (!second) throw new Error("no second attempt");
    expect(verified(secret, second).type).toBe("inquiry.received");
    await vi.waitFor(async () => expect((await log(id))[0]?.state).toBe("delivered"), WAIT);
    const [delivery] = await log(id);
    expect(delivery?.attempts).toBe(2);
    expect(delivery?.answers.map((answer) => answer.status)).toEqual([200, 500]);
    expect(delivery?.answers[1]?.body).toBe("answer 500");
    expect(delivery?.answers[0]?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("times out a receiver that hangs, and tries again", async () => {
    const { id } = await addEndpoint("/hangs", { events: ["inquiry.received"] });
    receiver.script("/hangs", ["hang"]);
    await post(t.app, visitor, "/api/v1/send-comment", VALID_INQUIRY);
    await vi.waitFor(async () => expect((await log(id))[0]?.state).toBe("delivered"), WAIT);
    const [delivery] = await log(id);
    expect(delivery?.attempts).toBe(2);
    expect(delivery?.answers[1]).toMatchObject({ status: null });
    expect(delivery?.answers[1]?.error).toMatch(/timed out/);
    const hooks = receiver.received("/hangs");
    expect(hooks[0]?.headers["webhook-id"]).toBe(hooks[1]?.headers["webhook-id"]);
  });

  it("gives up at once on a 404 or a redirect, and after the last attempt on a receiver that is down", async () => {
    const gone = await addEndpoint("/gone", { events: ["inquiry.received"] });
    receiver.script("/gone", [404]);
    const moved = await addEndpoint("/moved", { events: ["inquiry.received"] });
    receiver.script("/moved", [302]);
    const down = await addEndpoint("/down", {
      events: ["inquiry.received"],
      url: await closedPortUrl("/down"),
    });
    const inquiriesBefore = await t.database.db
      .selectFrom("inquiries")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow();
    // The write that caused the event answers at once, whatever its receivers do.
    const stored = await post(t.app, visitor, "/api/v1/send-comment", VALID_INQUIRY);
    expect(stored.statusCode, stored.body).toBe(200);
    const inquiriesAfter = await t.database.db
      .selectFrom("inquiries")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(inquiriesAfter.n)).toBe(Number(inquiriesBefore.n) + 1);

    await vi.waitFor(async () => expect((await log(gone.id))[0]?.state).toBe("failed"), WAIT);
    expect((await log(gone.id))[0]).toMatchObject({ attempts: 1 });
    await vi.waitFor(async () => expect((await log(moved.id))[0]?.state).toBe("failed"), WAIT);
    expect((await log(moved.id))[0]).toMatchObject({ attempts: 1 });
    expect((await log(moved.id))[0]?.answers[0]?.error).toBe(
      "Answered 302: redirects are not followed",
    );
    await vi.waitFor(async () => expect((await log(down.id))[0]?.state).toBe("failed"), WAIT);
    const [downDelivery] = await log(down.id);
    expect(downDelivery?.attempts).toBe(4);
    expect(downDelivery?.answers[0]?.error).toBe("The connection was refused");
    // The operator sees the given-up deliveries in the figures.
    const metrics = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: "Bearer webhook-metrics-token-of-at-least-32-characters" },
    });
    expect(metrics.body).toMatch(/site_webhook_deliveries\{status="failed"\} [2-9]/);
  });

  it("sends a test on request and shows its result", async () => {
    const { id, secret } = await addEndpoint("/test", { events: ["subscriber.created"] });
    const response = await owner.request("POST", webhookPath.test(id));
    expect(response.statusCode, response.body).toBe(202);
    const { delivery } = response.json() as { delivery: DeliveryView };
    expect(delivery).toMatchObject({ event: "webhook.test", state: "pending" });
    await vi.waitFor(async () => expect((await log(id))[0]?.state).toBe("delivered"), WAIT);
    const [hook] = receiver.received("/test");
    if (!hook) throw new Error("no test delivery");
    expect(verified(secret, hook)).toMatchObject({ type: "webhook.test" });
  });

  it("does not tell an endpoint that is turned off, or one that does not hear the event", async () => {
    const off = await addEndpoint("/off", { enabled: false });
    const deaf = await addEndpoint("/deaf", { events: ["newsletter.sent"] });
    await post(t.app, visitor, "/api/v1/send-comment", VALID_INQUIRY);
    expect(await log(off.id)).toEqual([]);
    expect(await log(deaf.id)).toEqual([]);
    expect((await owner.request("POST", webhookPath.test(off.id))).statusCode).toBe(409);
  });

  it("has two instances deliver each of many rows once", async () => {
    const database: Record<string, string> = t.config.DATABASE_URL
      ? { DATABASE_URL: t.config.DATABASE_URL }
      : { SQLITE_FILE: t.config.SQLITE_FILE };
    const other = await startApp(engine, { ...ENV, ...database }, { shared: t.testDb });
    try {
      const endpoint = await addEndpoint("/many", { events: ["newsletter.sent"] });
      const count = 40;
      await inTransaction(t.database.db, async (trx) => {
        for (let n = 0; n < count; n += 1) {
          await queueDeliveries(
            trx,
            [{ id: endpoint.id, format: "json" }],
            { type: "newsletter.sent", data: { n }, text: `Send ${n}` },
            new Date(),
          );
        }
      });
      await vi.waitFor(() => expect(receiver.received("/many")).toHaveLength(count), WAIT);
      await vi.waitFor(async () => {
        const rows = await t.database.db
          .selectFrom("webhook_deliveries")
          .select(["status", "attempts"])
          .where("endpoint_id", "=", endpoint.id)
          .execute();
        expect(rows.every((row) => row.status === "delivered" && row.attempts === 1)).toBe(true);
      }, WAIT);
      const ids = receiver.received("/many").map((hook) => hook.headers["webhook-id"]);
      expect(new Set(ids).size).toBe(count);
      // Both instances' logs took part: each names its worker's deliveries.
      const logsOf = (app: TestApp) =>
        app.logs.filter((line) => line.includes("webhook delivered"));
      expect(logsOf(t).length + logsOf(other).length).toBeGreaterThanOrEqual(count);
    } finally {
      await other.close();
    }
  });
});

describe.each(ENGINES)("a silent receiver beside a prompt one on $engine", (engine) => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  let owner: ConsoleClient;

  beforeAll(async () => {
    receiver = await startReceiver();
    // A time-out longer than any wait here: only the receiver's answer ends a held request.
    t = await startApp(engine, { ...ENV, WEBHOOK_TIMEOUT_MS: "60000" });
    await createAccount(t.database, "owner");
    owner = await signIn(t.app, "owner@firm.example");
  });
  afterAll(async () => {
    receiver.release("/silent");
    await t.close();
    await receiver.close();
  });

  it("delivers the prompt receiver's test while the silent one holds its deliveries unanswered", async () => {
    const silent = await addEndpointFor(owner, receiver, "/silent", {
      events: ["newsletter.sent"],
    });
    const prompt = await addEndpointFor(owner, receiver, "/prompt", {
      events: ["newsletter.sent"],
    });
    // More deliveries to the silent receiver than the worker posts at once, each held.
    const backlog = DELIVERIES_IN_FLIGHT + 2;
    receiver.script("/silent", Array<"hold">(backlog).fill("hold"));
    await inTransaction(t.database.db, async (trx) => {
      for (let n = 0; n < backlog; n += 1) {
        await queueDeliveries(
          trx,
          [{ id: silent.id, format: "json" }],
          { type: "newsletter.sent", data: { n }, text: `Send ${n}` },
          new Date(),
        );
      }
    });
    await vi.waitFor(() => expect(receiver.received("/silent")).not.toEqual([]), WAIT);

    const test = await owner.request("POST", webhookPath.test(prompt.id));
    expect(test.statusCode, test.body).toBe(202);
    await vi.waitFor(
      async () => expect((await deliveryLog(owner, prompt.id))[0]?.state).toBe("delivered"),
      WAIT,
    );
    expect(receiver.received("/prompt")).toHaveLength(1);
    // The silent receiver still holds its one request: one delivery posted, unanswered, the rest waiting.
    expect(receiver.received("/silent")).toHaveLength(1);
    const held = await deliveryLog(owner, silent.id);
    expect(held).toHaveLength(backlog);
    expect(held.every((delivery) => delivery.state === "pending")).toBe(true);
    expect(held.map((delivery) => delivery.attempts).sort()).toEqual([
      ...Array<number>(backlog - 1).fill(0),
      1,
    ]);
    expect(held.flatMap((delivery) => delivery.answers)).toEqual([]);

    // Answered, the silent receiver gets the rest in turn.
    receiver.script("/silent", []);
    receiver.release("/silent");
    await vi.waitFor(async () => {
      const states = (await deliveryLog(owner, silent.id)).map((delivery) => delivery.state);
      expect(states).toEqual(Array<string>(backlog).fill("delivered"));
    }, WAIT);
  });
});
