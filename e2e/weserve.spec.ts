/**
 * Who We Serve: case-study modals, the industries and tech
 * needs panels, their fade-in, the API failure handling, the anchor retry, and
 * accessibility. The test server is seeded from content/items.json.
 */
import items from "../content/items.json" with { type: "json" };
import { mockApi } from "./support/api.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { arriveFromHome, expectWhollyInView, open, waitUntilSettled } from "./support/page.ts";
import { expect, type Locator, loadFailure, type Page, test } from "./support/test.ts";

const CASE_STUDY_TITLES = [
  "Finance: AR Forecast",
  "Manufacturing: Product Maintenance Forecast",
  "E-Commerce: Automated Customer Targeting",
];
const MODAL_HEADINGS = ["The Opportunity", "The Solution", "The Work"];
const PROMPT = "Hover or focus an entry to see how we help.";
const ITEMS_API = /\/api\/v1\/items\//;

/** The two lists of the section, each by its panel's name. */
const LISTS = [
  ["Industries", items.industries],
  ["Tech Needs", items.techneeds],
] as const;
const SECTION_ID = "industries&techneeds";

function seeMore(page: Page, title: string) {
  return page.getByRole("link", { name: `See More about ${title}` });
}

const SLUGS = [
  "finance-ar-forecast",
  "manufacturing-product-maintenance-forecast",
  "e-commerce-automated-customer-targeting",
];

function panel(page: Page, name: "Industries" | "Tech Needs") {
  return page.getByRole("region", { name, exact: true });
}

function entries(page: Page, name: "Industries" | "Tech Needs") {
  return panel(page, name).getByRole("list", { name }).getByRole("button");
}

/** The section that carries the anchor id. */
function needsSection(page: Page) {
  return page.locator(`[id="${SECTION_ID}"]`);
}

async function openWeserve(page: Page) {
  await open(page, "/weserve");
  await expect(entries(page, "Industries")).toHaveCount(items.industries.length);
  await expect(entries(page, "Tech Needs")).toHaveCount(items.techneeds.length);
}

async function focusIsInside(locator: Locator) {
  return locator.evaluate((element) => element.contains(document.activeElement));
}

test.describe("case studies", () => {
  test("show the three fixed cards in the #casestudies section", async ({ page }) => {
    await open(page, "/weserve");
    await expect(page).toHaveTitle(/^Who We Serve \|/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Who We Serve");

    const section = page.locator("#casestudies");
    await expect(section).toHaveJSProperty("tagName", "SECTION");
    await expect(section.getByRole("heading", { level: 2 })).toHaveText("Case Studies");
    await expect(section.getByRole("heading", { level: 3 })).toHaveText(CASE_STUDY_TITLES);
    await expect(section.getByRole("link", { name: /^See More/ })).toHaveCount(3);
    for (const [index, title] of CASE_STUDY_TITLES.entries()) {
      const card = section.getByRole("article", { name: title });
      await expect(card.getByRole("link")).toHaveAccessibleName(`See More about ${title}`);
      await expect(card.getByRole("link")).toContainText("See More");
      // The study's own address: a reader without JavaScript follows it to the study's page.
      await expect(card.getByRole("link")).toHaveAttribute(
        "href",
        `/weserve/case-studies/${SLUGS[index]}`,
      );
    }
  });

  test("each See More opens its own modal, which the close button closes", async ({ page }) => {
    await open(page, "/weserve");
    for (const title of CASE_STUDY_TITLES) {
      const button = seeMore(page, title);
      await button.scrollIntoViewIfNeeded();
      const scrolled = await page.evaluate(() => window.scrollY);
      await button.click();

      const dialog = page.getByRole("dialog", { name: title });
      await expect(dialog).toBeVisible();
      // The address is the study's own, and the page behind has not moved.
      await expect(page).toHaveURL(/\/weserve\/case-studies\/[a-z-]+$/);
      expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
      await expect(page.locator("dialog[open]")).toHaveCount(1);
      await expect(dialog.getByRole("heading", { level: 2 })).toHaveText(title);
      await expect(dialog.getByRole("heading", { level: 3 })).toHaveText(MODAL_HEADINGS);

      const close = dialog.getByRole("button", { name: "Close" });
      await expect(close).toBeVisible();
      await close.click();
      await expect(dialog).toBeHidden();
      await expect(page.locator("dialog[open]")).toHaveCount(0);
      await expect(button).toBeFocused();
      await expect(page).toHaveURL(/\/weserve$/);
    }
  });

  test("an open case study holds the page still, and a click on the backdrop closes it", async ({
    page,
  }) => {
    await open(page, "/weserve");
    const button = seeMore(page, "Finance: AR Forecast");
    await button.scrollIntoViewIfNeeded();
    const before = await page.evaluate(() => window.scrollY);
    await button.click();
    const dialog = page.getByRole("dialog", { name: "Finance: AR Forecast" });
    await expect(dialog).toBeVisible();
    // A wheel over the backdrop does not scroll the page behind.
    await page.mouse.move(5, 300);
    await page.mouse.wheel(0, 800);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(before);
    await page.mouse.click(5, 300);
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/weserve$/);
    // A click inside the dialog keeps it open.
    await button.click();
    await dialog.getByRole("heading", { name: "The Solution" }).click();
    await expect(dialog).toBeVisible();
  });

  test("Back closes an open case study, and Forward opens it again", async ({ page }) => {
    await open(page, "/weserve");
    await seeMore(page, "Finance: AR Forecast").click();
    const dialog = page.getByRole("dialog", { name: "Finance: AR Forecast" });
    await expect(dialog).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/\/weserve$/);
    await expect(dialog).toBeHidden();
    await page.goForward();
    await expect(dialog).toBeVisible();
  });

  test("a case study's address, opened directly, is a page of its own", async ({ page }) => {
    const response = await open(page, `/weserve/case-studies/${SLUGS[1]}`);
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(/^Manufacturing: Product Maintenance Forecast · Case study \|/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Manufacturing: Product Maintenance Forecast",
    );
    await expect(page.locator("main").getByRole("heading", { level: 2 })).toHaveText(
      MODAL_HEADINGS,
    );
    await expect(page.locator("dialog[open]")).toHaveCount(0);
    await expect(page.locator("#casestudies")).toHaveCount(0);
    await page.getByRole("link", { name: /Case studies/ }).click();
    await expect(page).toHaveURL(/\/weserve#casestudies$/);
    await expect(page.locator("#casestudies")).toBeVisible();
  });

  test("an unknown case study is an unknown path: Home's content with 404", async ({
    page,
    expectedErrors,
  }) => {
    expectedErrors.add(loadFailure(404), { url: /\/no-such-study$/ });
    const response = await open(page, "/weserve/case-studies/no-such-study");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: /You Know the Business/ })).toBeVisible();
  });

  test("the modal shows the case study's own text", async ({ page }) => {
    await open(page, "/weserve");
    await seeMore(page, "Manufacturing: Product Maintenance Forecast").click();
    const dialog = page.getByRole("dialog", {
      name: "Manufacturing: Product Maintenance Forecast",
    });
    await expect(dialog.getByText(/ran 210 machines across three plants/)).toBeVisible();
    await expect(dialog.getByText(/accounts-receivable|receivables/)).toHaveCount(0);
  });

  test("Esc closes the modal and focus returns to See More", async ({ page }) => {
    await open(page, "/weserve");
    const button = seeMore(page, "E-Commerce: Automated Customer Targeting");
    await button.click();
    const dialog = page.getByRole("dialog", { name: "E-Commerce: Automated Customer Targeting" });
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(button).toBeFocused();
  });

  test("keyboard only: Tab to See More, Enter opens, Tab stays inside, Esc closes", async ({
    page,
  }) => {
    await open(page, "/weserve");
    const button = seeMore(page, "Finance: AR Forecast");
    for (let presses = 0; presses < 60; presses += 1) {
      if (await button.evaluate((element) => element === document.activeElement)) break;
      await page.keyboard.press("Tab");
    }
    await expect(button).toBeFocused();

    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Finance: AR Forecast" });
    await expect(dialog).toBeVisible();
    expect(await focusIsInside(dialog)).toBe(true);
    // The native modal dialog makes the page inert: Tab cycles through the dialog
    // and, past its last control, the browser's own UI (the document, in a headless
    // browser), but never reaches anything on the page behind it.
    const close = dialog.getByRole("button", { name: "Close" });
    let returnedToClose = false;
    for (const key of ["Tab", "Tab", "Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]) {
      await page.keyboard.press(key);
      const where = await page.evaluate(() => {
        const active = document.activeElement;
        if (!active || active === document.body) return "browser";
        return active.closest("dialog[open]") ? "dialog" : `page: ${active.outerHTML.slice(0, 80)}`;
      });
      expect(["dialog", "browser"]).toContain(where);
      if (await close.evaluate((element) => element === document.activeElement)) {
        returnedToClose = true;
      }
    }
    expect(returnedToClose).toBe(true);
    await close.focus();

    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(button).toBeFocused();
  });
});

test.describe("industries and tech needs", () => {
  test("list the entries the API returns", async ({ page }) => {
    await openWeserve(page);
    await expect(needsSection(page)).toHaveJSProperty("tagName", "SECTION");
    for (const [name, list] of LISTS) {
      const buttons = entries(page, name);
      await expect(buttons).toHaveCount(list.length);
      for (const [index, item] of list.entries()) {
        await expect(buttons.nth(index)).toHaveAccessibleName(item.name);
        await expect(buttons.nth(index)).toBeVisible();
      }
    }
  });

  test("hovering an entry shows its image and description; leaving clears it", async ({ page }) => {
    await openWeserve(page);
    const cta = page.getByRole("link", { name: "Start a conversation" });

    for (const [name, list] of LISTS) {
      const region = panel(page, name);
      for (const item of list) {
        const image = region.getByRole("img", { name: `${item.name} illustration` });
        const description = region.getByText(item.description, { exact: true });
        await expect(image).toBeHidden();
        await expect(description).toBeHidden();
        await expect(region.getByText(PROMPT)).toBeVisible();

        await region.getByRole("button", { name: item.name, exact: true }).hover();
        const ctaBefore = await cta.boundingBox();
        await expect(image).toBeVisible();
        await expect(image).toHaveAttribute("src", `/images/items/${item.imagePath}`);
        await expect
          .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
          .toBe(800);
        await expect(description).toBeVisible();
        await expect(region.getByText(PROMPT)).toBeHidden();
        // The detail has a reserved place: nothing below it moves.
        expect(await cta.boundingBox()).toEqual(ctaBefore);

        await page.mouse.move(1, 1);
        await expect(image).toBeHidden();
        await expect(description).toBeHidden();
        await expect(region.getByText(PROMPT)).toBeVisible();
      }
    }
  });

  test("focusing an entry with the keyboard shows it; moving focus away clears it", async ({
    page,
  }) => {
    await openWeserve(page);
    const [first, second] = items.techneeds;
    if (!first || !second) throw new Error("content/items.json needs two tech needs");
    const region = panel(page, "Tech Needs");
    const firstImage = region.getByRole("img", { name: `${first.name} illustration` });
    const secondImage = region.getByRole("img", { name: `${second.name} illustration` });

    // From the last industry, Tab moves into the Tech Needs list.
    await entries(page, "Industries").last().focus();
    await page.keyboard.press("Tab");
    await expect(region.getByRole("button", { name: first.name })).toBeFocused();
    await expect(firstImage).toBeVisible();
    await expect(region.getByText(first.description, { exact: true })).toBeVisible();

    await page.keyboard.press("Tab");
    await expect(region.getByRole("button", { name: second.name })).toBeFocused();
    await expect(firstImage).toBeHidden();
    await expect(region.getByText(first.description, { exact: true })).toBeHidden();
    await expect(secondImage).toBeVisible();
    await expect(region.getByText(second.description, { exact: true })).toBeVisible();

    await page.keyboard.press("Tab");
    await expect(secondImage).toBeHidden();
    await expect(region.getByText(second.description, { exact: true })).toBeHidden();
    await expect(region.getByText(PROMPT)).toBeVisible();
  });

  test("the panels fade in when scrolled into view and back out when scrolled away", async ({
    page,
  }) => {
    await openWeserve(page);
    const wrappers = ["Industries", "Tech Needs"].map((name) =>
      page
        .locator(".reveal")
        .filter({ has: page.getByRole("heading", { name, exact: true, level: 3 }) }),
    );

    await page.evaluate(() => window.scrollTo(0, 0));
    for (const wrapper of wrappers) {
      await expect(wrapper).toHaveCount(1);
      await expect(wrapper).not.toHaveClass(/\bis-visible\b/);
    }

    await wrappers[1]?.scrollIntoViewIfNeeded();
    for (const wrapper of wrappers) await expect(wrapper).toHaveClass(/\bis-visible\b/);

    await page.evaluate(() => window.scrollTo(0, 0));
    for (const wrapper of wrappers) await expect(wrapper).not.toHaveClass(/\bis-visible\b/);
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 }, hasTouch: true });

  test("tapping an entry brings its detail into view", async ({ page }) => {
    await openWeserve(page);
    for (const name of ["Industries", "Tech Needs"] as const) {
      const entry = entries(page, name).first();
      await entry.scrollIntoViewIfNeeded();
      await entry.tap();
      const detail = panel(page, name).locator(".needs-stage__detail.is-active");
      // Its text is in view (sub-pixel rounding aside).
      await expect(detail).toBeInViewport({ ratio: 0.95 });
    }
  });
});

for (const { name, use } of [
  {
    name: "a touch phone",
    use: { viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true },
  },
  {
    name: "a touch tablet",
    use: { viewport: { width: 1024, height: 768 }, hasTouch: true, isMobile: true },
  },
  { name: "a narrow window", use: { viewport: { width: 375, height: 740 } } },
]) {
  test.describe(`on ${name}`, () => {
    test.use(use);

    test("every entry's description shows without a hover or a tap, and nothing asks for a hover", async ({
      page,
    }) => {
      await openWeserve(page);
      for (const [name, list] of LISTS) {
        const region = panel(page, name);
        for (const item of list) {
          await expect(region.getByText(item.description, { exact: true })).toBeVisible();
        }
        await expect(region.getByText(PROMPT)).toBeHidden();
      }
    });
  });
}

test.describe("at 1440×900", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("after a jump to #industries&techneeds, the hovered entry's description is in view", async ({
    page,
  }) => {
    await open(page, `/weserve#${SECTION_ID}`);
    await expect
      .poll(() => needsSection(page).evaluate((el) => Math.abs(el.getBoundingClientRect().top)))
      .toBeLessThan(150);
    await waitUntilSettled(page);
    for (const [name, list] of LISTS) {
      for (const item of list) {
        await panel(page, name).getByRole("button", { name: item.name, exact: true }).hover();
        const description = panel(page, name).getByText(item.description, { exact: true });
        await expect(description).toBeVisible();
        await expectWhollyInView(description);
      }
    }
  });
});

test.describe("loading failures", () => {
  test("a network failure shows the Oops... dialog", async ({ page, expectedErrors }) => {
    // Both lists (industries, tech needs) fail.
    expectedErrors.add(loadFailure("failed"), { url: ITEMS_API, times: 2 });
    await mockApi(page, ITEMS_API, { fail: true });
    await arriveFromHome(page, "/weserve");
    const alert = page.getByRole("alertdialog", { name: "Oops..." });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText("Something went wrong!");
    await expect(needsSection(page)).toBeAttached();
    await expect(panel(page, "Industries").getByRole("list")).toHaveCount(0);
    await expect(panel(page, "Tech Needs").getByRole("list")).toHaveCount(0);
  });

  test("a 500 answer leaves the lists empty and shows no dialog", async ({
    page,
    expectedErrors,
  }) => {
    expectedErrors.add(loadFailure(500), { url: ITEMS_API, times: 2 });
    let answered = 0;
    await page.route(ITEMS_API, async (route) => {
      answered += 1;
      await route.fulfill({ status: 500, contentType: "application/json", body: "{}" });
    });
    await arriveFromHome(page, "/weserve");
    await expect(needsSection(page)).toBeAttached();
    expect(answered).toBe(2);
    await expect(panel(page, "Industries").getByRole("button")).toHaveCount(0);
    await expect(panel(page, "Tech Needs").getByRole("button")).toHaveCount(0);
    await expect(page.getByRole("alertdialog")).toHaveCount(0);
    await expect(page.locator("dialog[open]")).toHaveCount(0);
  });
});

test.describe("anchor #industries&techneeds", () => {
  for (const hash of ["#industries&techneeds", "#industries%26techneeds"]) {
    test(`${hash} scrolls to the section, which the served page already holds`, async ({
      page,
    }) => {
      await open(page, `/weserve${hash}`);
      await expect(needsSection(page)).toBeAttached();
      await expect
        .poll(() => needsSection(page).evaluate((el) => el.getBoundingClientRect().top), {
          timeout: 5000,
        })
        .toBeLessThan(150);
      const top = await needsSection(page).evaluate((el) => el.getBoundingClientRect().top);
      expect(top).toBeGreaterThanOrEqual(-2);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    });
  }
});

test.describe("accessibility", () => {
  test("no axe violations on the page", async ({ page }) => {
    await openWeserve(page);
    const wrappers = page.locator(".needs .reveal");
    await wrappers.last().scrollIntoViewIfNeeded();
    await expect(wrappers.first()).toHaveClass(/\bis-visible\b/);
    await expect(wrappers.last()).toHaveClass(/\bis-visible\b/);
    await waitUntilSettled(page); // the fade-in has finished before colours are measured
    await expectNoAxeViolations(page);

    await entries(page, "Industries").first().hover();
    await expect(panel(page, "Industries").getByRole("img")).toBeVisible();
    await waitUntilSettled(page);
    await expectNoAxeViolations(page);
  });

  test("no axe violations with a case-study modal open", async ({ page }) => {
    await openWeserve(page);
    await seeMore(page, "Finance: AR Forecast").click();
    await expect(page.getByRole("dialog", { name: "Finance: AR Forecast" })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
