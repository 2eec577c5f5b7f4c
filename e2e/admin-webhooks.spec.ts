/**
 * In the browser, on a server of its own that lets webhooks reach the
 * loopback (WEBHOOKS_ALLOW_PRIVATE, as for a tool on the firm's own
 * network) and retries within a second: an owner adds a webhook aimed at a
 * receiver the test runs, copies its secret, sends a test, and the receiver
 * gets a request whose signature the Standard Webhooks library verifies
 * while the log shows the 200; a receiver that answers 500 first shows the
 * retry in the log. An address inside a network is refused on a server
 * that does not allow it. It passes axe and fits a 375 px phone. With
 * `npm run screenshots:console` it also writes the screen's screenshots.
 */
import { mkdirSync } from "node:fs";
import { Webhook } from "standardwebhooks";
import { WEBHOOK_TEXTS } from "../src/shared/admin/webhooks.ts";
import { startReceiver, type WebhookReceiver } from "../test/support/webhook-receiver.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { signInToConsole } from "./support/console.ts";
import { expectWithinWindowWidth } from "./support/page.ts";
import { onPreparedServer } from "./support/prepared-database.ts";
import { expect, loadFailure, type Page, test } from "./support/test.ts";

const OWNER = { role: "owner", email: "lena@meridian.example", name: "Lena Fischer" } as const;

/** Private addresses allowed, and retries a few hundred milliseconds apart. */
const ALLOWING = {
  WEBHOOKS_ALLOW_PRIVATE: "true",
  WEBHOOK_POLL_MS: "200",
  WEBHOOK_RETRY_BASE_MS: "300",
  WEBHOOK_RETRY_MAX_MS: "600",
};

async function onWebhooks(
  page: Page,
  label: string,
  env: Record<string, string>,
  use: () => Promise<void>,
) {
  await onPreparedServer(
    label,
    OWNER,
    async () => {},
    async (server) => {
      await signInToConsole(page, server.account, `${server.origin}/admin/webhooks`);
      await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
      await use();
    },
    env,
  );
}

async function addWebhook(page: Page, name: string, url: string, format = "Generic JSON") {
  const form = page.getByRole("region", { name: "Add a webhook" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Address", { exact: true }).fill(url);
  await form.getByRole("checkbox", { name: "New subscriber" }).check();
  await form.getByRole("radio", { name: format }).check();
  await form.getByRole("button", { name: "Add webhook" }).click();
  await expect(form.getByRole("status").filter({ hasText: WEBHOOK_TEXTS.added })).toBeVisible();
  const secret = (await form.getByTestId("webhook-secret").textContent()) ?? "";
  expect(secret).toMatch(/^whsec_/);
  return { secret, card: page.getByRole("article", { name }) };
}

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

test("an owner adds a webhook, sends a test that verifies, and sees a retry after a 500", async ({
  page,
}) => {
  test.info().setTimeout(90_000);
  await onWebhooks(page, "webhooks", ALLOWING, async () => {
    const { secret, card } = await addWebhook(page, "CRM", receiver.url("/e2e-crm"));
    await expect(card).toContainText(receiver.url("/e2e-crm"));
    await expect(card.getByText("Nothing sent yet.")).toBeVisible();

    await card.getByRole("button", { name: "Send a test" }).click();
    await expect(
      card.getByRole("status").filter({ hasText: WEBHOOK_TEXTS.testQueued }),
    ).toBeVisible();
    const deliveries = card.getByTestId("webhook-delivery");
    await expect(deliveries.first()).toContainText("Delivered");
    await expect(deliveries.first()).toContainText("200");

    const [hook] = receiver.received("/e2e-crm");
    if (!hook) throw new Error("the receiver got nothing");
    const verified = new Webhook(secret).verify(hook.body, {
      "webhook-id": String(hook.headers["webhook-id"]),
      "webhook-timestamp": String(hook.headers["webhook-timestamp"]),
      "webhook-signature": String(hook.headers["webhook-signature"]),
    });
    expect(verified).toMatchObject({ type: "webhook.test", data: { endpoint: "CRM" } });
    await expectNoAxeViolations(page);

    // A tool that fails once: the log shows the 500, then the 200 of the retry.
    receiver.script("/e2e-flaky", [500]);
    const flaky = await addWebhook(
      page,
      "Sales channel",
      receiver.url("/e2e-flaky"),
      "Slack-compatible message",
    );
    await flaky.card.getByRole("button", { name: "Send a test" }).click();
    const retried = flaky.card.getByTestId("webhook-delivery").first();
    await expect(retried).toContainText("Delivered");
    await expect(retried.getByRole("cell", { name: "2", exact: true })).toBeVisible();
    await expect(retried.getByRole("listitem")).toHaveCount(2);
    await expect(retried.getByRole("listitem").nth(1)).toContainText("500");
    await expect(retried.getByRole("listitem").nth(1)).toContainText("Answered 500");
    const [first, second] = receiver.received("/e2e-flaky");
    expect(second?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
    expect(JSON.parse(second?.body ?? "{}")).toMatchObject({
      text: expect.stringContaining("reaches this channel"),
    });
  });
});

test("an address inside the firm's network is refused where the server does not allow it", async ({
  page,
  expectedErrors,
}) => {
  test.info().setTimeout(90_000);
  expectedErrors.add(loadFailure(400), { url: /\/api\/admin\/webhooks$/ });
  await onWebhooks(page, "webhooks-strict", {}, async () => {
    const form = page.getByRole("region", { name: "Add a webhook" });
    await form.getByLabel("Name", { exact: true }).fill("Metadata");
    await form
      .getByLabel("Address", { exact: true })
      .fill("http://169.254.169.254/latest/meta-data");
    await form.getByRole("button", { name: "Add webhook" }).click();
    await expect(form).toContainText(WEBHOOK_TEXTS.privateAddress("169.254.169.254"));
    await expect(form.getByLabel("Address", { exact: true })).toHaveValue(
      "http://169.254.169.254/latest/meta-data",
    );
    await expect(page.getByText("No webhooks yet.")).toBeVisible();
  });
});

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("the webhooks and their log fit the phone", async ({ page }) => {
    test.info().setTimeout(90_000);
    await onWebhooks(page, "webhooks-phone", ALLOWING, async () => {
      const { card } = await addWebhook(page, "CRM", receiver.url("/e2e-phone"));
      await card.getByRole("button", { name: "Send a test" }).click();
      await expect(card.getByTestId("webhook-delivery").first()).toContainText("Delivered");
      await expectWithinWindowWidth(page, card);
      await expectWithinWindowWidth(page, page.getByRole("region", { name: "Add a webhook" }));
      await expectNoAxeViolations(page);
    });
  });
});

test("writes the screen's screenshots @screenshots", async ({ page }) => {
  const dir = "docs/screenshots/admin";
  mkdirSync(dir, { recursive: true });
  test.info().setTimeout(90_000);
  await onWebhooks(page, "webhooks-shots", ALLOWING, async () => {
    receiver.script("/e2e-shots-slack", [503]);
    const slack = await addWebhook(
      page,
      "Sales channel (Slack)",
      receiver.url("/e2e-shots-slack"),
      "Slack-compatible message",
    );
    await slack.card.getByRole("button", { name: "Send a test" }).click();
    await expect(slack.card.getByTestId("webhook-delivery").first()).toContainText("Delivered");
    const crm = await addWebhook(page, "CRM", receiver.url("/e2e-shots-crm"));
    await crm.card.getByRole("button", { name: "Send a test" }).click();
    await expect(crm.card.getByTestId("webhook-delivery").first()).toContainText("Delivered");
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await expect(page.getByRole("article", { name: "CRM" })).toBeVisible();
      await expect(page.getByTestId("webhook-delivery")).toHaveCount(2);
      await page.screenshot({ path: `${dir}/webhooks-${width}.png`, fullPage: true });
    }
  });
});
