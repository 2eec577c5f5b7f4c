/**
 * Turned-away posts in the browser (ADR 036), each on a server of its own
 * that keeps the default minimum time-to-submit. A person whose browser
 * fills the footer's subscribe form (Playwright's fill sets the value without
 * key events, as autofill does) and who presses Enter at once is told they
 * subscribed; their post is kept, and once an editor releases it from the
 * console the address is subscribed, as the console's API shows. The list
 * passes axe at 375 and 1440 px; with `npm run screenshots:console` it also
 * writes the screen's screenshots.
 */
import { mkdirSync } from "node:fs";
import { keepPost } from "../src/server/features/turned-away/index.ts";
import type { DatabaseHandle } from "../src/server/platform/db/connection.ts";
import { countTrip } from "../src/server/platform/security/bot-trips.ts";
import { SUBSCRIBER_ROUTES, type SubscriberList } from "../src/shared/admin/subscribers.ts";
import { TURNED_AWAY_TEXTS } from "../src/shared/admin/turned-away.ts";
import { DIALOG } from "../src/shared/constants.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { signInToConsole } from "./support/console.ts";
import { expectNoSidewaysScroll } from "./support/page.ts";
import { onPreparedServer, type PreparedServer } from "./support/prepared-database.ts";
import { expect, type Page, test } from "./support/test.ts";

const EDITOR = { role: "editor", email: "noor@meridian.example", name: "Noor Haddad" } as const;
/** The server's default, which the shared test server sets to 0. */
const MIN_SECONDS = { FORM_MIN_SECONDS: "3" };
const MINUTE_MS = 60_000;

const AUTOFILLED = "ines.autofill@reader.example";
const SCRIPTED_INQUIRY = {
  firstName: "Buy",
  lastName: "Followers",
  company: "Growth Hacks Ltd",
  jobTitle: "",
  email: "offers@growth-hacks.example",
  phoneNumber: "+1 555 0199",
  inquiryType: "Machine Learning",
  comments: "Cheap followers for your company page, 10,000 for $5. Reply to this address.",
};
const HURRIED_READER = "mo.quick@fastmail.example";

/** Two posts the traps caught, and their counts, as the server would have kept them. */
async function seedTurnedAway({ db }: DatabaseHandle) {
  const now = Date.now();
  await keepPost(
    db,
    {
      form: "inquiry",
      trap: { reason: "honeypot", seconds: 41.2 },
      via: "website",
      fields: SCRIPTED_INQUIRY,
    },
    new Date(now - 90 * MINUTE_MS),
  );
  await keepPost(
    db,
    {
      form: "subscription",
      trap: { reason: "too-fast", seconds: 0.8 },
      via: "form",
      fields: { emailId: HURRIED_READER },
    },
    new Date(now - 20 * MINUTE_MS),
  );
  await countTrip(db, "inquiry", "honeypot");
  await countTrip(db, "subscription", "too-fast");
}

const onTurnedAway = (label: string, use: (server: PreparedServer) => Promise<void>) =>
  onPreparedServer(label, EDITOR, seedTurnedAway, use, MIN_SECONDS);

async function openTurnedAway(page: Page, server: PreparedServer) {
  await signInToConsole(page, server.account, `${server.origin}/admin/inquiries`);
  await page.getByRole("link", { name: "Review the turned-away posts" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Turned away" })).toBeVisible();
}

const post = (page: Page, text: string) => page.getByRole("article").filter({ hasText: text });

async function subscribersMatching(page: Page, server: PreparedServer, address: string) {
  const answer = await page.request.get(
    `${server.origin}${SUBSCRIBER_ROUTES.list}?q=${encodeURIComponent(address)}`,
  );
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as SubscriberList).items.map((row) => row.email);
}

test("a reader who autofills the footer form and presses Enter at once gets in once an editor releases the post", async ({
  page,
}) => {
  test.info().setTimeout(90_000);
  await onTurnedAway("turned-away-autofill", async (server) => {
    await page.goto(`${server.origin}/`);
    const email = page.getByRole("contentinfo").getByRole("textbox", { name: "Email address" });
    await email.fill(AUTOFILLED);
    await email.press("Enter");
    await expect(page.getByText(DIALOG.subscribed)).toBeVisible();

    await openTurnedAway(page, server);
    expect(await subscribersMatching(page, server, AUTOFILLED)).toEqual([]);
    const kept = post(page, AUTOFILLED);
    await expect(kept).toContainText("Too fast");
    await expectNoAxeViolations(page);

    await kept.getByRole("button", { name: "Release this subscription" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: TURNED_AWAY_TEXTS.releasedSubscription }),
    ).toBeVisible();
    await expect(post(page, AUTOFILLED)).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
    expect(await subscribersMatching(page, server, AUTOFILLED)).toEqual([AUTOFILLED]);

    await post(page, SCRIPTED_INQUIRY.email)
      .getByRole("button", { name: "Delete this inquiry" })
      .click();
    await expect(
      page.getByRole("status").filter({ hasText: TURNED_AWAY_TEXTS.deleted }),
    ).toBeVisible();
    await expect(post(page, SCRIPTED_INQUIRY.email)).toHaveCount(0);
    await expectNoAxeViolations(page);
  });
});

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("the list fits the phone and passes axe", async ({ page }) => {
    test.info().setTimeout(90_000);
    await onTurnedAway("turned-away-phone", async (server) => {
      await openTurnedAway(page, server);
      await expect(post(page, HURRIED_READER)).toBeVisible();
      await expect(post(page, SCRIPTED_INQUIRY.email)).toContainText("hidden trap field");
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
    });
  });
});

test("writes the screen's screenshots @screenshots", async ({ page }) => {
  const dir = "docs/screenshots/admin";
  mkdirSync(dir, { recursive: true });
  test.info().setTimeout(90_000);
  await onTurnedAway("turned-away-shots", async (server) => {
    await openTurnedAway(page, server);
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await expect(post(page, HURRIED_READER)).toBeVisible();
      await page.screenshot({ path: `${dir}/inquiries-turned-away-${width}.png`, fullPage: true });
    }
  });
});
