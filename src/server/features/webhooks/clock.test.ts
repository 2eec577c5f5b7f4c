/**
 * The webhooks' clock and back-off: a delivery is signed with the time of
 * the server's clock (injected here, two minutes ahead of the real one, so
 * the library's five-minute tolerance still verifies it), and each retry's
 * wait doubles up to its cap with a jitter between half and all of it.
 */
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startApp, type TestApp } from "../../../../test/support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../../../test/support/console.ts";
import { SQLITE_ONLY } from "../../../../test/support/engines.ts";
import { startReceiver, type WebhookReceiver } from "../../../../test/support/webhook-receiver.ts";
import { WEBHOOK_ROUTES, webhookPath } from "../../../shared/admin/webhooks.ts";
import { retryDelay } from "./worker.ts";

const AHEAD_MS = 2 * 60_000;

describe("the back-off", () => {
  const policy = { retryBaseMs: 1000, retryMaxMs: 10_000 };
  it("doubles from the base up to the cap, each wait between half and all of it", () => {
    expect([1, 2, 3, 4, 5, 9].map((attempt) => retryDelay(attempt, policy, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelay(attempt, policy, () => 0))).toEqual([
      500, 1000, 2000, 4000, 5000,
    ]);
  });
});

describe.each(SQLITE_ONLY)("the webhooks' clock on $engine", (engine) => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let owner: ConsoleClient;
  const clock = () => Date.now() + AHEAD_MS;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await startApp(
      engine,
      { WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOK_POLL_MS: "50" },
      { now: clock },
    );
    await createAccount(t.database, "owner");
    owner = await signIn(t.app, "owner@firm.example");
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it("signs and logs with the server's clock", async () => {
    const added = await owner.request("POST", WEBHOOK_ROUTES.list, {
      name: "Clock",
      url: receiver.url("/clock"),
      events: ["inquiry.received"],
      format: "json",
      enabled: true,
    });
    const { webhook, secret } = added.json() as { webhook: { id: number }; secret: string };
    const before = clock();
    expect((await owner.request("POST", webhookPath.test(webhook.id))).statusCode).toBe(202);
    await vi.waitFor(() => expect(receiver.received("/clock")).toHaveLength(1), {
      timeout: 10_000,
      interval: 25,
    });
    const [hook] = receiver.received("/clock");
    if (!hook) throw new Error("nothing delivered");
    const stamp = Number(hook.headers["webhook-timestamp"]) * 1000;
    expect(stamp).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(stamp).toBeLessThanOrEqual(clock());
    const body = new Webhook(secret).verify(hook.body, {
      "webhook-id": String(hook.headers["webhook-id"]),
      "webhook-timestamp": String(hook.headers["webhook-timestamp"]),
      "webhook-signature": String(hook.headers["webhook-signature"]),
    }) as { timestamp: string };
    expect(Date.parse(body.timestamp)).toBeGreaterThanOrEqual(before);
  });
});
