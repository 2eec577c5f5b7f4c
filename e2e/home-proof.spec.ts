/**
 * Home's proof and the menu's lines, as a visitor meets them: the case
 * studies' figures and the latest case study on Home, each leading to its
 * study, with and without JavaScript; the Who We Serve panel's featured case
 * study; a line under every menu entry. The latest Insight issue on Home is
 * in insight.spec.ts, whose server holds issues.
 */

import items from "../content/items.json" with { type: "json" };
import { caseStudyPath } from "../src/shared/routes.ts";
import { menuOf } from "../src/web/layout/menu.ts";
import { siteEntriesOf } from "../src/web/lib/site-entries.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { expectNoSidewaysScroll, open } from "./support/page.ts";
import { expect, type Page, test } from "./support/test.ts";

/** The menu as the seeded content makes it. */
const SEEDED_MENU = menuOf(siteEntriesOf(items));

const FIGURES = [
  { figure: "38%", label: "more accurate 90-day cash forecast", link: "Finance case study" },
  { figure: "31%", label: "less unplanned downtime", link: "Manufacturing case study" },
  { figure: "27%", label: "more marketing revenue per email", link: "E-Commerce case study" },
];
const FINANCE = caseStudyPath("finance-ar-forecast");

const outcomes = (page: Page) => page.getByRole("region", { name: /What the work changed/ });
const latest = (page: Page) => page.getByRole("region", { name: /^Latest from/ });

for (const width of [375, 1440]) {
  test(`at ${width} px, Home shows the studies' figures and the latest study, each leading on`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await open(page, "/");
    const items = outcomes(page).getByRole("listitem");
    await expect(items).toHaveCount(FIGURES.length);
    for (const [index, { figure, label, link }] of FIGURES.entries()) {
      await expect(items.nth(index)).toContainText(figure);
      await expect(items.nth(index)).toContainText(label);
      await expect(items.nth(index).getByRole("link", { name: link })).toBeVisible();
    }
    const study = latest(page).getByRole("link", {
      name: "E-Commerce: Automated Customer Targeting",
    });
    await expect(study).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    await outcomes(page).getByRole("link", { name: "Finance case study" }).click();
    await expect(page).toHaveURL(FINANCE);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Finance: AR Forecast");
  });
}

test("the Who We Serve panel features the first case study with its figure, and leads to it", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await open(page, "/wedo");
  await page.getByRole("button", { name: "Who We Serve menu" }).click();
  const panel = page.locator("#panel-serve");
  await expect(panel.getByText("Featured case study")).toBeVisible();
  await expect(panel.getByText(/^38%\s+more accurate 90-day cash forecast$/)).toBeVisible();
  await expectNoAxeViolations(page);
  await panel.getByRole("link", { name: "Finance: AR Forecast" }).click();
  await expect(page).toHaveURL(FINANCE);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Finance: AR Forecast");
  await expect(panel).toBeHidden();
});

test("every entry of every panel has its one line, in view when the panel opens", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await open(page, "/");
  for (const section of SEEDED_MENU) {
    await page.getByRole("button", { name: `${section.label} menu` }).click();
    const panel = page.locator(`#panel-${section.id}`);
    for (const group of section.groups) {
      await expect(panel.getByText(group.line, { exact: true })).toBeInViewport();
      for (const link of group.links) {
        await expect(panel.getByText(link.line, { exact: true })).toBeInViewport();
      }
    }
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
  }
});

test("on a short desktop screen an open panel ends at the screen's edge and scrolls within itself", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 520 });
  await open(page, "/");
  await page.getByRole("button", { name: "Who We Serve menu" }).click();
  const panel = page.locator("#panel-serve");
  const box = await panel.boundingBox();
  expect(box && box.y + box.height).toBeLessThanOrEqual(520);
  const last = panel.getByText("Software built around the way you work.", { exact: true });
  await expect(last).not.toBeInViewport();
  await panel.hover();
  await page.mouse.wheel(0, 600);
  await expect(last).toBeInViewport();
  await expect(panel).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Home's figures and latest study are in the served page, and their links work", async ({
    page,
  }) => {
    await page.goto("/");
    await expect(outcomes(page).getByRole("listitem")).toHaveCount(FIGURES.length);
    await latest(page)
      .getByRole("link", { name: "E-Commerce: Automated Customer Targeting" })
      .click();
    await expect(page).toHaveURL(caseStudyPath("e-commerce-automated-customer-targeting"));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "E-Commerce: Automated Customer Targeting",
    );
  });
});
