/**
 * Turned-away posts in the browser (ADR 036), each on a server of its own
 * whose database holds what the traps kept: a subscription and an inquiry
 * caught by the honeypot, and an inquiry that came too fast. Once an editor
 * releases the subscription from the console the address is subscribed, as
 * the console's API shows; a deleted post is gone. A flood of posts comes a
 * page at a time, newest first. The list passes axe at 375 and 1440 px; with
 * `npm run screenshots:console` it also writes the screen's screenshots. (A subscription that only came too fast is not kept:
 * e2e/autofill.spec.ts.)
 */
import { mkdirSync } from "node:fs";
import { keepPost } from "../src/server/features/turned-away/index.ts";
import type { DatabaseHandle } from "../src/server/platform/db/connection.ts";
import { countTrip } from "../src/server/platform/security/bot-trips.ts";
import { SUBSCRIBER_ROUTES, type SubscriberList } from "../src/shared/admin/subscribers.ts";
import { TURNED_AWAY_PAGE_SIZE, TURNED_AWAY_TEXTS } from "../src/shared/admin/turned-away.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { signInToConsole } from "./support/console.ts";
import { expectNoSidewaysScroll } from "./support/page.ts";
import { onPreparedServer, type PreparedServer } from "./support/prepared-database.ts";
import { expect, type Page, test } from "./support/test.ts";

const EDITOR = { role: "editor", email: "noor@meridian.example", name: "Noor Haddad" } as const;
const MINUTE_MS = 60_000;

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
const HURRIED_LEAD = {
  ...SCRIPTED_INQUIRY,
  firstName: "Mo",
  lastName: "Quick",
  company: "Quickline Logistics",
  email: "mo.quick@quickline.example",
  inquiryType: "Predictive Analytics",
  comments: "Pasted from our brief: we need a demand forecast for 40 depots by March.",
};
const CAUGHT_READER = "ines.reader@mailbox.example";

/** Three posts the traps caught, and their counts, as the server would have kept them. */
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
      form: "inquiry",
      trap: { reason: "too-fast", seconds: 1.4 },
      via: "website",
      fields: HURRIED_LEAD,
    },
    new Date(now - 45 * MINUTE_MS),
  );
  await keepPost(
    db,
    {
      form: "subscription",
      trap: { reason: "honeypot", seconds: 12.6 },
      via: "form",
      fields: { emailId: CAUGHT_READER },
    },
    new Date(now - 20 * MINUTE_MS),
  );
  await countTrip(db, "inquiry", "honeypot");
  await countTrip(db, "inquiry", "too-fast");
  await countTrip(db, "subscription", "honeypot");
}

const onTurnedAway = (label: string, use: (server: PreparedServer) => Promise<void>) =>
  onPreparedServer(label, EDITOR, seedTurnedAway, use);

/** A script's flood: a page of posts and four more, a minute apart, the newest numbered highest. */
const FLOOD = TURNED_AWAY_PAGE_SIZE + 4;
const floodAddress = (n: number) => `offer-${n}@growth-hacks.example`;

async function seedFlood({ db }: DatabaseHandle) {
  const now = Date.now();
  for (let n = 1; n <= FLOOD; n += 1) {
    await keepPost(
      db,
      {
        form: "inquiry",
        trap: { reason: "honeypot", seconds: 3.1 },
        via: "website",
        fields: { ...SCRIPTED_INQUIRY, email: floodAddress(n) },
      },
      new Date(now - (FLOOD + 1 - n) * MINUTE_MS),
    );
    await countTrip(db, "inquiry", "honeypot");
  }
}

const onFlood = (label: string, use: (server: PreparedServer) => Promise<void>) =>
  onPreparedServer(label, EDITOR, seedFlood, use);

const pager = (page: Page) => page.getByRole("navigation", { name: "Pages of turned-away posts" });

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

test("an editor releases a reader's subscription the traps kept, and deletes a script's inquiry", async ({
  page,
}) => {
  test.info().setTimeout(90_000);
  await onTurnedAway("turned-away-release", async (server) => {
    await openTurnedAway(page, server);
    expect(await subscribersMatching(page, server, CAUGHT_READER)).toEqual([]);
    const kept = post(page, CAUGHT_READER);
    await expect(kept).toContainText("hidden trap field");
    await expect(post(page, HURRIED_LEAD.email)).toContainText("Too fast");
    await expectNoAxeViolations(page);

    await kept.getByRole("button", { name: "Release this subscription" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: TURNED_AWAY_TEXTS.releasedSubscription }),
    ).toBeVisible();
    await expect(post(page, CAUGHT_READER)).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
    expect(await subscribersMatching(page, server, CAUGHT_READER)).toEqual([CAUGHT_READER]);

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

test("pages a flood of posts, newest first, the next page holding the rest", async ({ page }) => {
  test.info().setTimeout(90_000);
  await onFlood("turned-away-pages", async (server) => {
    await openTurnedAway(page, server);
    await expect(page.getByText(`${FLOOD} posts the forms took for automated ones`)).toBeVisible();
    await expect(page.getByRole("article")).toHaveCount(TURNED_AWAY_PAGE_SIZE);
    await expect(page.getByRole("article").first()).toContainText(floodAddress(FLOOD));
    await expect(pager(page)).toContainText("Page 1 of 2");

    await pager(page).getByRole("link", { name: "Next page" }).click();
    await expect(pager(page)).toContainText("Page 2 of 2");
    await expect(page.getByRole("article")).toHaveCount(FLOOD - TURNED_AWAY_PAGE_SIZE);
    await expect(page.getByRole("article").last()).toContainText(floodAddress(1));
    await expectNoAxeViolations(page);
  });
});

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("the list fits the phone and passes axe", async ({ page }) => {
    test.info().setTimeout(90_000);
    await onTurnedAway("turned-away-phone", async (server) => {
      await openTurnedAway(page, server);
      await expect(post(page, CAUGHT_READER)).toBeVisible();
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
      await expect(post(page, CAUGHT_READER)).toBeVisible();
      await page.screenshot({ path: `${dir}/inquiries-turned-away-${width}.png`, fullPage: true });
    }
  });
  await onFlood("turned-away-pages-shots", async (server) => {
    await openTurnedAway(page, server);
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await expect(pager(page)).toContainText("Page 1 of 2");
      await pager(page).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${dir}/inquiries-turned-away-pages-${width}.png` });
    }
  });
});
