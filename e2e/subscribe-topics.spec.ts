/**
 * Topics from the firm to the reader, on a server of its own (its
 * subscribe page offers topics, which no other test's page does): a visitor
 * without JavaScript ticks two topics and subscribes; asking again with
 * another box ticked is refused with the box still ticked; a visitor with
 * JavaScript ticks one and gets the dialog; the editor reads each choice on
 * the subscriber's page, adds a topic in the console (the page offers it at
 * once) and removes one after a confirmation.
 */
import { mkdirSync } from "node:fs";
import type { DatabaseHandle } from "../src/server/platform/db/connection.ts";
import { TOPIC_TEXTS } from "../src/shared/admin/subscribers.ts";
import { DIALOG } from "../src/shared/constants.ts";
import { SUBSCRIBE_PATH } from "../src/shared/routes.ts";
import { TOPICS_LEGEND } from "../src/shared/subscription.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { signInToConsole } from "./support/console.ts";
import { expectNoSidewaysScroll, whenHydrated } from "./support/page.ts";
import { onPreparedServer } from "./support/prepared-database.ts";
import { expect, loadFailure, type Page, test } from "./support/test.ts";

const EDITOR = {
  role: "editor",
  email: "topics-editor@firm.example",
  name: "Priya Raman",
} as const;

async function writeTopics({ db }: DatabaseHandle) {
  await db
    .insertInto("topics")
    .values(["Insurance", "Energy & utilities", "Data platforms"].map((name) => ({ name })))
    .execute();
}

const topicBox = (page: Page, name: string) =>
  page.getByRole("main").getByRole("checkbox", { name, exact: true });

test("visitors choose topics as they subscribe, and the editor reads and changes them", async ({
  page,
  browser,
  expectedErrors,
}) => {
  test.setTimeout(90_000);
  // The console's refusal of a topic offered already.
  expectedErrors.add(loadFailure(409), { url: /\/api\/admin\/subscribers\/topics$/ });
  await onPreparedServer("subscribe-topics", EDITOR, writeTopics, async ({ origin, account }) => {
    // Without JavaScript: two topics ticked, subscribed.
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const plain = await noScript.newPage();
    await plain.goto(`${origin}${SUBSCRIBE_PATH}`);
    const main = plain.getByRole("main");
    await expect(main.getByRole("group", { name: TOPICS_LEGEND })).toBeVisible();
    await topicBox(plain, "Energy & utilities").check();
    await topicBox(plain, "Data platforms").check();
    await main.getByRole("textbox", { name: "Email address" }).fill("plain@example.com");
    await main.getByRole("button", { name: "Subscribe" }).click();
    await expect(main.getByRole("status")).toContainText(DIALOG.subscribed);
    // Asked again with another topic: refused, and what was ticked stays ticked.
    await topicBox(plain, "Insurance").check();
    await main.getByRole("textbox", { name: "Email address" }).fill("plain@example.com");
    await main.getByRole("button", { name: "Subscribe" }).click();
    await expect(main.getByRole("alert")).toContainText("already subscribed");
    await expect(topicBox(plain, "Insurance")).toBeChecked();
    await noScript.close();

    // With JavaScript: one topic, and the dialog.
    await page.goto(`${origin}${SUBSCRIBE_PATH}`);
    await whenHydrated(page);
    await topicBox(page, "Insurance").check();
    await page
      .getByRole("main")
      .getByRole("textbox", { name: "Email address" })
      .fill("js@example.com");
    await page.getByRole("main").getByRole("button", { name: "Subscribe" }).click();
    await expect(page.getByRole("alertdialog", { name: DIALOG.successTitle })).toContainText(
      DIALOG.subscribed,
    );

    // The editor reads each choice on the subscriber's page.
    await signInToConsole(page, account, `${origin}/admin/subscribers`);
    for (const [address, topics] of [
      ["plain@example.com", "Energy & utilities, Data platforms"],
      ["js@example.com", "Insurance"],
    ]) {
      await page.goto(`${origin}/admin/subscribers`);
      await page.getByRole("link", { name: address }).click();
      const person = page.getByRole("region", { name: "The person", exact: true });
      await expect(person.locator(".person-facts")).toContainText(`Topics chosen${topics}`);
    }

    // Adds a topic, which the page offers at once, and removes one after a confirmation.
    await page.goto(`${origin}/admin/subscribers`);
    await page.getByRole("link", { name: "Topics", exact: true }).click();
    await page.getByLabel("Add a topic").fill("Insurance");
    await page.getByRole("button", { name: "Add topic" }).click();
    await expect(page.getByText(TOPIC_TEXTS.taken)).toBeVisible();
    await page.getByLabel("Add a topic").fill("Cloud costs");
    await page.getByRole("button", { name: "Add topic" }).click();
    const list = page.locator(".topic-list");
    await expect(list).toContainText("Cloud costs");
    await expect(list.locator(".topic-row").first()).toContainText("chosen by 1 active subscriber");
    await list.getByRole("button", { name: "Remove Insurance…" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Remove “Insurance”?" });
    await expect(confirm).toContainText("the 1 active subscriber who chose it lose that choice");
    await confirm.getByRole("button", { name: "Remove the topic" }).click();
    await expect(list).not.toContainText("Insurance");
    await expectNoAxeViolations(page);

    await page.goto(`${origin}${SUBSCRIBE_PATH}`);
    await expect(topicBox(page, "Cloud costs")).toBeVisible();
    await expect(topicBox(page, "Insurance")).toHaveCount(0);
  });
});

test("writes the screenshots of the subscribe page's topics @screenshots", async ({ page }) => {
  const dir = "docs/screenshots/admin";
  mkdirSync(dir, { recursive: true });
  await onPreparedServer("topics-shots", EDITOR, writeTopics, async ({ origin, account }) => {
    for (const width of [1440, 375]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.goto(`${origin}${SUBSCRIBE_PATH}`);
      await topicBox(page, "Data platforms").check();
      await expectNoSidewaysScroll(page);
      await page.screenshot({ path: `docs/screenshots/subscribe-topics-${width}.png` });
    }
    await signInToConsole(page, account, `${origin}/admin/subscribers/topics`);
    for (const width of [1440, 375]) {
      await page.setViewportSize({ width, height: 1000 });
      await expect(page.locator(".topic-row")).toHaveCount(3);
      await expectNoSidewaysScroll(page);
      await page.screenshot({ path: `${dir}/topics-${width}.png`, fullPage: true });
    }
  });
});
