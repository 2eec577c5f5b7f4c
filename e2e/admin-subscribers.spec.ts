/**
 * In the browser: an owner finds an address that subscribed
 * through the public API, reads its consent history and erases it; each
 * role sees only the actions it may take; every state passes axe and fits
 * 375 px. With `npm run screenshots:console` it also writes the area's screenshots.
 */
import { mkdirSync } from "node:fs";
import type { DatabaseHandle } from "../src/server/platform/db/connection.ts";
import { ERASURE_TEXTS } from "../src/shared/admin/erasure.ts";
import { SUBSCRIBER_TEXTS } from "../src/shared/admin/subscribers.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { consoleAccount, signInToConsole } from "./support/console.ts";
import { expectNoSidewaysScroll, expectWhollyInView } from "./support/page.ts";
import { onPreparedServer } from "./support/prepared-database.ts";
import { expect, type Page, test } from "./support/test.ts";

/** An address of this run's own, so parallel tests and reruns never meet. */
const uniqueAddress = (label: string) =>
  `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@subscribers-e2e.example`;

/** Subscribes as the website's script does: the XSRF cookie, then the API call. */
async function subscribeThroughApi(page: Page, email: string) {
  await page.request.get("/api/v1/xsrf");
  const cookies = await page.context().cookies();
  const token = cookies.find((cookie) => cookie.name === "XSRF-TOKEN")?.value ?? "";
  const response = await page.request.post(
    `/api/v1/subscribe?emailId=${encodeURIComponent(email)}`,
    {
      headers: { "x-xsrf-token": token },
    },
  );
  expect(response.status()).toBe(201);
}

async function searchFor(page: Page, text: string) {
  await page.getByRole("searchbox", { name: "Address" }).fill(text);
  await page.getByRole("button", { name: "Search" }).click();
}

async function openSubscriber(page: Page, email: string) {
  await searchFor(page, email);
  await expect(page.getByRole("status").filter({ hasText: "1 subscriber matches." })).toBeVisible();
  await page.getByRole("link", { name: email }).click();
  await expect(page.getByRole("heading", { level: 1, name: email })).toBeVisible();
}

/** The list with its counts and chart, once everything has arrived. */
async function expectListLoaded(page: Page) {
  await expect(page.getByRole("status").filter({ hasText: /match/ })).toBeVisible();
  await expect(
    page.getByRole("table", { name: /New subscriptions, imported addresses and unsubscriptions/ }),
  ).toBeAttached();
}

test("an owner finds a subscriber, reads its history and erases it after typing the address", async ({
  page,
}) => {
  const email = uniqueAddress("erase");
  await subscribeThroughApi(page, email);
  const owner = await consoleAccount("owner", "subscribers-erase");
  await signInToConsole(page, owner, "/admin/subscribers");
  await expect(page.getByRole("heading", { level: 1, name: "Subscribers" })).toBeVisible();
  await expectListLoaded(page);

  await searchFor(page, email.toUpperCase());
  await expect(page).toHaveURL(/\?q=/);
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: email }).click();

  const history = page.getByRole("region", { name: "Consent history" });
  await expect(history.getByRole("listitem")).toHaveCount(1);
  await expect(history).toContainText("Subscribed");
  await expect(history).toContainText("Website form");
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Erase completely…" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Erase this subscriber completely?" });
  await expect(dialog).toBeVisible();
  // It says what stays and why, and promises nothing the console cannot do (there is no import).
  await expect(dialog).toContainText("the firm can show the erasure was done");
  await expect(dialog).not.toContainText(/import/i);
  await expectNoAxeViolations(page);

  const confirmation = dialog.getByRole("textbox", { name: "Type the address to confirm" });
  await confirmation.fill("someone-else@subscribers-e2e.example");
  await dialog.getByRole("button", { name: "Erase for good" }).click();
  await expect(dialog.getByText(ERASURE_TEXTS.confirmMismatch)).toBeVisible();
  await expect(confirmation).toBeFocused();

  await confirmation.fill(email);
  await dialog.getByRole("button", { name: "Erase for good" }).click();
  await expect(page).toHaveURL(/\/admin\/subscribers$/);
  await expect(
    page.getByRole("status").filter({ hasText: SUBSCRIBER_TEXTS.erased(email) }),
  ).toBeVisible();

  await searchFor(page, email);
  await expect(page.getByRole("status").filter({ hasText: "0 subscribers match." })).toBeVisible();
  await expect(page.getByText("No subscriber matches this search.")).toBeVisible();
});

test("a viewer reads a subscriber and is offered no action", async ({ page }) => {
  const email = uniqueAddress("viewer");
  await subscribeThroughApi(page, email);
  const viewer = await consoleAccount("viewer", "subscribers-roles");
  await signInToConsole(page, viewer, "/admin/subscribers");
  await openSubscriber(page, email);
  await expect(page.getByRole("region", { name: "Consent history" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Erase completely…" })).toHaveCount(0);
  await page.getByRole("link", { name: "All subscribers" }).click();
  await expect(page).toHaveURL(/\/admin\/subscribers\?q=/);
  await expect(page.getByRole("link", { name: email })).toBeVisible();
});

test("an editor unsubscribes an address on request but cannot erase it", async ({ page }) => {
  const email = uniqueAddress("editor");
  await subscribeThroughApi(page, email);
  const editor = await consoleAccount("editor", "subscribers-roles");
  await signInToConsole(page, editor, "/admin/subscribers");
  await openSubscriber(page, email);
  await expect(page.getByRole("button", { name: "Erase completely…" })).toHaveCount(0);
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: SUBSCRIBER_TEXTS.unsubscribed }),
  ).toBeVisible();
  const history = page.getByRole("region", { name: "Consent history" });
  await expect(history.getByRole("listitem")).toHaveCount(2);
  await expect(history).toContainText("Console, on the person's request");
  await expect(page.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("the list, a subscriber and the erase dialog fit and work", async ({ page }) => {
    const email = uniqueAddress("phone-with-a-rather-long-address");
    await subscribeThroughApi(page, email);
    await signInToConsole(
      page,
      await consoleAccount("owner", "subscribers-phone"),
      "/admin/subscribers",
    );
    await expectListLoaded(page);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    await openSubscriber(page, email);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    const erase = page.getByRole("button", { name: "Erase completely…" });
    await erase.click();
    const dialog = page.getByRole("alertdialog");
    await expectWhollyInView(dialog);
    await expectNoAxeViolations(page);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(erase).toBeFocused();
  });
});

/** Subscribers over the last year, for pictures with a list and a chart worth seeing. */
async function seedForScreenshots({ db }: DatabaseHandle) {
  const names = [
    "ada.lovelace",
    "grace.hopper",
    "alan.turing",
    "katherine.johnson",
    "edsger.dijkstra",
    "barbara.liskov",
    "donald.knuth",
    "margaret.hamilton",
    "tim.berners-lee",
    "radia.perlman",
    "ken.thompson",
    "frances.allen",
    "john.mccarthy",
    "hedy.lamarr",
  ];
  const now = new Date();
  for (const [index, name] of names.entries()) {
    const at = new Date(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (index % 11), 3 + index, 9 + index),
    );
    // Every fourth reader left twenty days later, unless that day is still to come.
    const leftAt = at.getTime() + 20 * 86_400_000;
    const left = index % 4 === 3 && leftAt < now.getTime() ? new Date(leftAt) : null;
    const email = `${name}@screenshots.example`;
    const row = await db
      .insertInto("subscriptions")
      .values({
        email,
        subscribed_at: at.toISOString(),
        subscribed_via: index % 3 === 0 ? "form" : "website",
        // Confirmed through the e-mailed link a few minutes later.
        confirmed_at: new Date(at.getTime() + 7 * 60_000).toISOString(),
        unsubscribed_at: left?.toISOString() ?? null,
        unsubscribed_via: left ? "one-click" : null,
        created_at: at.toISOString(),
        updated_at: at.toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("subscription_events")
      .values([
        {
          subscription_id: row.id,
          event: "subscribed",
          via: index % 3 === 0 ? "form" : "website",
          at: at.toISOString(),
        },
        ...(left
          ? [
              {
                subscription_id: row.id,
                event: "unsubscribed" as const,
                via: "one-click",
                at: left.toISOString(),
              },
            ]
          : []),
      ])
      .execute();
  }
}

test("writes the area's screenshots @screenshots", async ({ page }) => {
  const dir = "docs/screenshots/admin";
  mkdirSync(dir, { recursive: true });
  const shown = "margaret.hamilton@screenshots.example";
  test.info().setTimeout(90_000);
  // A server of its own, on a database holding the list before it starts.
  const owner = { role: "owner", email: "lena@meridian.example", name: "Lena Fischer" } as const;
  await onPreparedServer("subscribers-shots", owner, seedForScreenshots, async (server) => {
    await signInToConsole(page, server.account, `${server.origin}/admin/subscribers`);
    await shootSubscribers(page, server.origin, dir, shown);
  });
});

async function shootSubscribers(page: Page, origin: string, dir: string, shown: string) {
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${origin}/admin/subscribers`);
    await expectListLoaded(page);
    await page.screenshot({ path: `${dir}/subscribers-list-${width}.png`, fullPage: true });
    await page.getByRole("link", { name: shown }).click();
    await expect(page.getByRole("region", { name: "Consent history" })).toBeVisible();
    await page.screenshot({ path: `${dir}/subscribers-detail-${width}.png`, fullPage: true });
    await page.getByRole("button", { name: "Erase completely…" }).click();
    await page.getByRole("textbox", { name: "Type the address to confirm" }).fill("margaret@");
    await page.getByRole("button", { name: "Erase for good" }).click();
    await expect(
      page.getByRole("alertdialog").getByText(ERASURE_TEXTS.confirmMismatch),
    ).toBeVisible();
    await page.screenshot({ path: `${dir}/subscribers-erase-dialog-${width}.png` });
    await page.keyboard.press("Escape");
  }
}
