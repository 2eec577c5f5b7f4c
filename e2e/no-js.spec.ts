/**
 * Without JavaScript every page is complete and usable, and
 * printing shows every section. The pages come from the server as rendered;
 * with scripts off, only HTML and CSS are at work.
 */

import caseStudies from "../content/case-studies.json" with { type: "json" };
import items from "../content/items.json" with { type: "json" };
import team from "../content/team.json" with { type: "json" };
import { CAPABILITIES } from "../src/shared/capabilities.ts";
import { open } from "./support/page.ts";
import { expect, type Page, test } from "./support/test.ts";

/** Every element matched is painted: in the layout and not transparent. */
async function expectShown(page: Page, selector: string, count: number) {
  const shown = await page.locator(selector).evaluateAll(
    (elements) =>
      elements.filter((element) => {
        const style = getComputedStyle(element);
        const box = element.getBoundingClientRect();
        return (
          style.visibility === "visible" &&
          Number(style.opacity) > 0.99 &&
          style.transform === "none" &&
          box.width > 0 &&
          box.height > 0
        );
      }).length,
  );
  expect(shown, selector).toBe(count);
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 375, height: 740 } });

  test("the phone menu opens and leads to each page", async ({ page }) => {
    await page.goto("/");
    const list = page.locator("#mobile-menu");
    await expect(list).toBeHidden();
    await page.getByRole("link", { name: "Menu" }).click();
    await expect(list).toBeVisible();
    await expect(list.getByRole("link")).toHaveText([
      "Who We Serve",
      "What We Do",
      "Who We Are",
      "Contact Us",
    ]);
    await list.getByRole("link", { name: "What We Do" }).click();
    await expect(page).toHaveURL(/\/wedo$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("What We Do");
  });

  test("Who We Are shows every member in a scrollable row and every ethos text", async ({
    page,
  }) => {
    await page.goto("/weare");
    await expect(page.locator(".leadership-slide")).toHaveCount(team.length);
    for (const member of team) {
      await expect(page.getByRole("heading", { name: member.fullname })).toBeAttached();
    }
    const track = page.locator(".leadership-track");
    const { scrollWidth, clientWidth } = await track.evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
    }));
    expect(scrollWidth).toBeGreaterThan(clientWidth);
    await track.scrollIntoViewIfNeeded();
    await track.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await expect(page.getByRole("heading", { name: team.at(-1)?.fullname })).toBeInViewport();
    await expectShown(page, ".ethos-card__text", items.ethos.length);
  });

  test("What We Do shows every capability and the whole methodology", async ({ page }) => {
    await page.goto("/wedo");
    await expect(page.locator(".capability__name")).toHaveText([...CAPABILITIES]);
    await page.locator("#methodology").scrollIntoViewIfNeeded();
    const lines = await page.locator(".cascade__line").count();
    expect(lines).toBeGreaterThan(0);
    await expectShown(page, ".cascade__line", lines);
  });

  test("Who We Serve shows every industry and tech need with its text", async ({ page }) => {
    await page.goto("/weserve");
    await expectShown(page, ".needs .reveal", 2);
    await expectShown(
      page,
      ".needs-stage__detail",
      items.industries.length + items.techneeds.length,
    );
  });

  test("each case study is readable at its own address, reached by See More", async ({ page }) => {
    await page.goto("/weserve");
    const [study] = caseStudies;
    await page.getByRole("link", { name: `See More about ${study?.title}` }).click();
    await expect(page).toHaveURL(new RegExp(`/weserve/case-studies/${study?.slug}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(String(study?.title));
    for (const paragraph of study?.work ?? [])
      await expect(page.getByText(paragraph)).toBeVisible();
  });
});

test.describe("printed", () => {
  test.use({ viewport: { width: 1024, height: 800 } });

  test("every section of a page is on paper, the hidden-until-scrolled ones included", async ({
    page,
  }) => {
    await open(page, "/weare");
    await page.emulateMedia({ media: "print" });
    await expectShown(page, ".ethos-card__text", items.ethos.length);
    // Every member fits the page's width: nothing is left in a scrolled-away row.
    const outside = await page
      .locator(".leadership-slide")
      .evaluateAll(
        (slides) =>
          slides.filter((slide) => slide.getBoundingClientRect().right > window.innerWidth).length,
      );
    expect(outside).toBe(0);

    await open(page, "/weserve");
    await page.emulateMedia({ media: "print" });
    await expectShown(page, ".needs .reveal", 2);
    await expectShown(
      page,
      ".needs-stage__detail",
      items.industries.length + items.techneeds.length,
    );

    await open(page, "/wedo");
    await page.emulateMedia({ media: "print" });
    await expectShown(page, ".capability__description", items.capabilities.length);
    await expectShown(page, ".cascade__line", await page.locator(".cascade__line").count());
  });
});
