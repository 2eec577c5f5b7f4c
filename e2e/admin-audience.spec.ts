/**
 * In the browser, on a server of its own with 400 days of figures: a
 * viewer opens the Audience area and sees the last 7 days beside the 7
 * before, the chart with its table, the funnel and the breakdowns with the
 * leads they brought; the range picker changes every figure; a table's CSV
 * downloads with its figures; a day on which a breakdown met its cap of
 * values is named under it; axe finds nothing at 1440 and at 375 px,
 * where nothing scrolls sideways. The screenshots test writes the screen's
 * pictures for the docs.
 */
import { mkdirSync, readFileSync } from "node:fs";
import type { DatabaseHandle } from "../src/server/platform/db/connection.ts";
import { GOAL_TEXTS } from "../src/shared/admin/audience.ts";
import { audienceRows, dayAgo, INSIGHT_TITLE, sumOf, writeAudience } from "./support/audience.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { signInToConsole } from "./support/console.ts";
import { expectNoSidewaysScroll } from "./support/page.ts";
import { onPreparedServer } from "./support/prepared-database.ts";
import { expect, type Page, test } from "./support/test.ts";

const VIEWER = { role: "viewer", email: "noor@meridian.example", name: "Noor Haddad" } as const;
/** Who adds and removes goals. */
const EDITOR = { role: "editor", email: "sam@meridian.example", name: "Sam Okafor" } as const;
const ROWS = audienceRows();
const NUMBER = new Intl.NumberFormat("en-GB");

/** A day two days ago on which more referrers came than a day keeps: the rest are "(other)". */
const CAPPED_DAY = dayAgo(2);

async function writeCappedDay({ db }: DatabaseHandle) {
  await db
    .insertInto("audience_value_caps")
    .values({
      day: CAPPED_DAY,
      dimension: "referrer",
      max_values: 2000,
      admitted: 2000,
      overflowed: 1,
    })
    .execute();
  await db
    .insertInto("audience_days")
    .values({
      day: CAPPED_DAY,
      dimension: "referrer",
      value: "(other)",
      views: 40,
      visits: 9,
      visitors: 9,
    })
    .execute();
}

async function onAudience(
  page: Page,
  label: string,
  use: () => Promise<void>,
  fill: (database: DatabaseHandle) => Promise<void> = (database) => writeAudience(database, ROWS),
  account: { role: "viewer" | "editor"; email: string; name: string } = VIEWER,
) {
  await onPreparedServer(label, account, fill, async (server) => {
    await signInToConsole(page, server.account, `${server.origin}/admin/audience`);
    await expect(page.getByRole("heading", { level: 1, name: "Audience" })).toBeVisible();
    await use();
  });
}

/** A figure's tile: its label, then its value. */
const tile = (page: Page, label: string) =>
  page.locator(".tile").filter({ has: page.getByText(label, { exact: true }) });

test("a viewer reads the figures, changes the range and downloads a table", async ({ page }) => {
  test.info().setTimeout(120_000);
  await onAudience(page, "audience-page", async () => {
    const week = (value: string, key: "visits" | "views" | "visitors", days = 7) =>
      NUMBER.format(sumOf(ROWS, days, "total", value, key));
    await expect(tile(page, "Visitors").locator(".tile-value")).toHaveText(week("", "visitors"));
    await expect(tile(page, "Page views").locator(".tile-value")).toHaveText(week("", "views"));
    await expect(tile(page, "Visits").locator(".tile-value")).toHaveText(week("", "visits"));
    // Nobody but the signed-in viewer, who is never counted, is on the site now.
    await expect(page.locator(".audience-live")).toHaveText("0 visitors in the last 30 minutes");
    // Two inquiries and one subscription in the last 7 days.
    await expect(tile(page, "Inquiries").locator(".tile-value")).toHaveText("2");
    await expect(tile(page, "Subscriptions").locator(".tile-value")).toHaveText("1");
    // The 7 days before: the sum of days 7 to 13 ago.
    const before = sumOf(ROWS, 14, "total", "", "visits") - sumOf(ROWS, 7, "total", "", "visits");
    await expect(tile(page, "Visits").locator(".tile-before")).toContainText(
      `${NUMBER.format(before)} before`,
    );

    // The chart is a drawing; its numbers are a table anyone can open.
    await expect(page.locator(".trend-plot canvas")).toBeVisible();
    await page.getByText("Show the daily figures as a table").click();
    const daily = page.getByRole("table", { name: /Visitors, page views and visits per day/ });
    await expect(daily.locator("tbody tr")).toHaveCount(7);

    const channels = page.getByRole("region", { name: "Channels" });
    await expect(channels.getByRole("row", { name: /Search/ })).toContainText(
      NUMBER.format(sumOf(ROWS, 7, "channel", "search", "visits")),
    );
    const insight = page.getByRole("region", { name: "Visits from Insight issues" });
    await expect(insight).toContainText(INSIGHT_TITLE);
    await expectNoAxeViolations(page);

    // Today: a single day is drawn hour by hour, its 24 hours in the table.
    await page.getByRole("radio", { name: "Today" }).check();
    await expect(page).toHaveURL(/range=today/);
    await expect(
      page.getByRole("heading", { name: "Visitors and page views per hour" }),
    ).toBeVisible();
    // The table's disclosure stays open from the 7 days, now with the hours.
    await expect(page.getByText("Show the hourly figures as a table")).toBeVisible();
    const hourly = page.getByRole("table", { name: /Visitors, page views and visits per hour/ });
    await expect(hourly.locator("tbody tr")).toHaveCount(24);
    await expect(hourly.locator("tbody tr").nth(11).getByRole("rowheader")).toHaveText(
      "11:00–12:00",
    );
    await expectNoAxeViolations(page);

    // 30 days: every figure follows.
    await page.getByRole("radio", { name: "30 days" }).check();
    await expect(page).toHaveURL(/range=30d/);
    await expect(tile(page, "Visits").locator(".tile-value")).toHaveText(week("", "visits", 30));
    await expect(tile(page, "Inquiries").locator(".tile-value")).toHaveText("3");
    await expect(channels.getByRole("row", { name: /Search/ })).toContainText(
      NUMBER.format(sumOf(ROWS, 30, "channel", "search", "visits")),
    );

    // The channels' CSV, for the range in view.
    const download = page.waitForEvent("download");
    await channels.getByRole("link", { name: "Download CSV: Channels" }).click();
    const file = await (await download).path();
    const lines = readFileSync(file, "utf8")
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\n");
    expect(lines[0]).toBe("value,visitors,views,visits,inquiries,subscriptions,conversion_rate");
    const search = lines.find((line) => line.startsWith("search,"));
    expect(search?.split(",")[3]).toBe(String(sumOf(ROWS, 30, "channel", "search", "visits")));
    expect(search?.split(",")[4]).toBe("1");
    expect(search?.split(",")[5]).toBe("1");

    // A custom range of one day, a week ago.
    await page.getByRole("radio", { name: "Custom" }).check();
    const day = ROWS.find((row) => row.dimension === "total" && row.day === dayAgo(7));
    if (!day) throw new Error("no seeded day to pick");
    await page.getByLabel("From", { exact: true }).fill(day.day);
    await page.getByLabel("To", { exact: true }).fill(day.day);
    await page.getByRole("button", { name: "Show" }).click();
    await expect(tile(page, "Visits").locator(".tile-value")).toHaveText(NUMBER.format(day.visits));
  });
});

test("an editor names a page as a goal and reads how often the week's visits reached it", async ({
  page,
}) => {
  await onAudience(
    page,
    "audience-goals",
    async () => {
      const goals = page.getByRole("region", { name: "Goals" });
      // Two inquiries in the last 7 days, as the tile says.
      await expect(
        goals
          .getByRole("row", { name: /Sent an inquiry/ })
          .getByRole("cell")
          .first(),
      ).toHaveText("2");
      const field = goals.getByLabel("Add a page as a goal");
      await field.fill("weserve");
      await goals.getByRole("button", { name: "Add goal" }).click();
      await expect(goals.getByText(GOAL_TEXTS.pathSlash)).toBeVisible();
      await expect(field).toHaveAttribute("aria-invalid", "true");

      await field.fill("/weserve");
      await goals.getByRole("button", { name: "Add goal" }).click();
      const row = goals.getByRole("row", { name: /\/weserve/ });
      await expect(row.getByRole("cell").first()).toHaveText(
        NUMBER.format(sumOf(ROWS, 7, "page", "/weserve", "visits")),
      );
      await expect(field).toHaveValue("");
      await expectNoAxeViolations(page);

      await row.getByRole("button", { name: "Remove the goal /weserve" }).click();
      await expect(row).toHaveCount(0);
    },
    undefined,
    EDITOR,
  );
});

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("the screen fits the phone and passes axe", async ({ page }) => {
    test.info().setTimeout(90_000);
    await onAudience(page, "audience-phone", async () => {
      await expect(page.locator(".trend-plot canvas")).toBeVisible();
      await expect(page.getByRole("region", { name: "Top pages" }).getByRole("row")).toHaveCount(7);
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
    });
  });
});

for (const width of [1440, 375]) {
  test(`says under a breakdown on which day it met its cap of values, at ${width} px`, async ({
    page,
  }) => {
    test.info().setTimeout(90_000);
    await page.setViewportSize({ width, height: 900 });
    await onAudience(
      page,
      `audience-capped-${width}`,
      async () => {
        const referrers = page.getByRole("region", { name: "Referrers" });
        await expect(referrers.getByRole("row", { name: /\(other\)/ })).toBeVisible();
        const day = new Intl.DateTimeFormat("en-GB", {
          day: "numeric",
          month: "short",
          year: "numeric",
          timeZone: "UTC",
        }).format(new Date(`${CAPPED_DAY}T00:00:00Z`));
        await expect(referrers).toContainText(
          `On ${day}, more than 2,000 different referrers were seen; the rest that day are counted under (other).`,
        );
        // Only the breakdown that met its cap says so.
        await expect(page.getByText(/different .* were seen/)).toHaveCount(1);
        await expectNoSidewaysScroll(page);
        await expectNoAxeViolations(page);
        await referrers.scrollIntoViewIfNeeded();
        await page.screenshot({ path: test.info().outputPath(`audience-capped-${width}.png`) });
      },
      async (database) => {
        await writeAudience(database, ROWS);
        await writeCappedDay(database);
      },
    );
  });
}

test("writes the screen's screenshots @screenshots", async ({ page }) => {
  const dir = "docs/screenshots/admin";
  mkdirSync(dir, { recursive: true });
  test.info().setTimeout(90_000);
  await onAudience(
    page,
    "audience-shots",
    async () => {
      for (const width of [375, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.reload();
        await expect(page.getByRole("region", { name: "Browsers" }).getByRole("row")).toHaveCount(
          5,
        );
        await expect(page.locator(".trend-plot canvas")).toBeVisible();
        await page.screenshot({ path: `${dir}/audience-${width}.png`, fullPage: true });
        await page
          .getByRole("region", { name: "Visits from Insight issues" })
          .screenshot({ path: `${dir}/audience-insight-${width}.png` });
        // Tall enough to hold the card below the console's sticky header.
        await page.setViewportSize({ width, height: 6000 });
        await page
          .getByRole("region", { name: "Goals" })
          .screenshot({ path: `${dir}/audience-goals-${width}.png` });
      }
      // Today, hour by hour, on a phone and at the width of a desk.
      await page.getByRole("radio", { name: "Today" }).check();
      await expect(page.getByRole("heading", { name: /per hour/ })).toBeVisible();
      await page.setViewportSize({ width: 375, height: 900 });
      const trend = page.getByRole("region", { name: /Visitors and page views per hour/ });
      await expect(trend.locator(".trend-plot canvas")).toBeVisible();
      await trend.screenshot({ path: `${dir}/audience-today-375.png` });
      await page.setViewportSize({ width: 1440, height: 900 });
      await expect(trend.locator(".trend-plot canvas")).toBeVisible();
      await page.screenshot({ path: `${dir}/audience-today-1440.png` });
      // A year of days, at the width of a desk.
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.getByRole("radio", { name: "12 months" }).check();
      await expect(page.locator(".trend-table tbody tr")).toHaveCount(365);
      await page.screenshot({ path: `${dir}/audience-12-months-1440.png` });
    },
    async (database) => {
      await writeAudience(database, ROWS);
      await database.db
        .insertInto("audience_goals")
        .values([{ path: "/contact-us" }, { path: "/insight/q4-outlook" }, { path: "/wedo" }])
        .execute();
    },
    EDITOR,
  );
});
