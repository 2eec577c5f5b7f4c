/**
 * Each entry of a mega-menu leads to that entry, not just to its section:
 * an industry or a tech need opens its own detail in view, a capability
 * scrolls to its card and marks it. With JavaScript and without.
 */
import items from "../content/items.json" with { type: "json" };
import { expectWhollyInView, open } from "./support/page.ts";
import { expect, type Page, test } from "./support/test.ts";

function megaItem(page: Page, label: string) {
  return page
    .locator(".mega-nav__item")
    .filter({ has: page.getByRole("link", { name: label, exact: true }) });
}

async function followMenu(page: Page, section: string, entry: string) {
  await megaItem(page, section).hover();
  await page.locator(".mega-panel:visible").getByRole("link", { name: entry, exact: true }).click();
}

function describedAs(name: string) {
  const item = [...items.industries, ...items.techneeds, ...items.capabilities].find(
    (entry) => entry.name === name,
  );
  if (!item) throw new Error(`content/items.json has no ${name}`);
  return item.description;
}

/** Finance's detail (its name and description) is shown and in the viewport. */
async function expectDetailInView(page: Page, anchor: string, name: string) {
  const detail = page.locator(`[id="${anchor}"]`);
  await expect(detail).toContainText(name);
  await expect(detail.getByText(describedAs(name), { exact: true })).toBeVisible();
  await expectWhollyInView(detail);
}

/** The card of a capability is in view, marked, and shows its whole description. */
async function expectCardMarked(page: Page, anchor: string, name: string) {
  const card = page.locator(`[id="${anchor}"]`);
  await expect(card.getByRole("heading", { name })).toBeVisible();
  await expectWhollyInView(card);
  await expect(card.getByText(describedAs(name), { exact: true })).toBeVisible();
  // Marked: it alone looks different from the others (the pointer kept away).
  await page.mouse.move(0, 0);
  const index = items.capabilities.findIndex((capability) => capability.name === name);
  await expect
    .poll(async () => {
      const backgrounds = await page
        .locator("#capabilities .capability")
        .evaluateAll((cards) => cards.map((card) => getComputedStyle(card).backgroundColor));
      const others = new Set(backgrounds.filter((_, i) => i !== index));
      return others.size === 1 && !others.has(String(backgrounds[index]));
    })
    .toBe(true);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled, viewport: { width: 1440, height: 900 } });

    const start = (page: Page, path: string) =>
      javaScriptEnabled ? open(page, path) : page.goto(path);

    test("Finance in the Who We Serve menu opens Finance's detail in view", async ({ page }) => {
      await start(page, "/");
      await followMenu(page, "Who We Serve", "Finance");
      await expect(page).toHaveURL(/\/weserve#industries-finance$/);
      await expectDetailInView(page, "industries-finance", "Finance");
    });

    test("a tech need in the menu opens its detail, also from the page itself", async ({
      page,
    }) => {
      await start(page, "/weserve");
      await followMenu(page, "Who We Serve", "In House Development");
      await expect(page).toHaveURL(/\/weserve#techneeds-in-house-development$/);
      await expectDetailInView(page, "techneeds-in-house-development", "In House Development");
      await followMenu(page, "Who We Serve", "Automotive");
      await expect(page).toHaveURL(/\/weserve#industries-automotive$/);
      await expectDetailInView(page, "industries-automotive", "Automotive");
    });

    test("a capability in the What We Do menu scrolls to its card and marks it", async ({
      page,
    }) => {
      await start(page, "/");
      await followMenu(page, "What We Do", "Machine Learning");
      await expect(page).toHaveURL(/\/wedo#capabilities-machine-learning$/);
      await expectCardMarked(page, "capabilities-machine-learning", "Machine Learning");
      // Another one from the same page: only the new one is marked.
      await followMenu(page, "What We Do", "App Development");
      await expect(page).toHaveURL(/\/wedo#capabilities-app-development$/);
      await expectCardMarked(page, "capabilities-app-development", "App Development");
    });
  });
}
