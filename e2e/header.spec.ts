import { CAPABILITIES } from "../src/shared/capabilities.ts";
import { SECTIONS } from "../src/web/layout/menu.ts";
import { holdApi } from "./support/api.ts";
import { expectWhollyInView, open } from "./support/page.ts";
import { expect, type Page, test } from "./support/test.ts";

const panel = (page: Page, id: string) => page.locator(`#panel-${id}`);
const item = (page: Page, label: string) =>
  page
    .locator(".mega-nav__item")
    .filter({ has: page.getByRole("link", { name: label, exact: true }) });

test.describe("desktop mega-menu", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("each panel lists exactly its fixed entries, each linked to its own anchor", async ({
    page,
  }) => {
    await open(page, "/");
    const expected = {
      serve: [
        ["Case Studies", "/weserve#casestudies"],
        ["Industries", "/weserve#industries&techneeds"],
        ["Automotive", "/weserve#industries-automotive"],
        ["Construction", "/weserve#industries-construction"],
        ["E-Commerce", "/weserve#industries-e-commerce"],
        ["Finance", "/weserve#industries-finance"],
        ["Manufacturing", "/weserve#industries-manufacturing"],
        ["Tech Needs", "/weserve#industries&techneeds"],
        ["Third Party Software Integration", "/weserve#techneeds-third-party-software-integration"],
        ["In House Development", "/weserve#techneeds-in-house-development"],
      ],
      do: [
        ["Capabilities", "/wedo#capabilities"],
        ...CAPABILITIES.map((name) => [
          name,
          `/wedo#capabilities-${name.toLowerCase().replaceAll(" ", "-")}`,
        ]),
        ["Methodology", "/wedo#methodology"],
      ],
      are: [
        ["Leadership", "/weare#leadership"],
        ["Our Ethos", "/weare#ethos"],
      ],
    };
    for (const section of SECTIONS) {
      await item(page, section.label).hover();
      const links = panel(page, section.id).locator(".mega-panel__groups a");
      await expect(links).toHaveCount(expected[section.id].length);
      const actual = await links.evaluateAll((anchors) =>
        anchors.map((a) => [a.textContent, decodeURIComponent(a.getAttribute("href") ?? "")]),
      );
      expect(actual).toEqual(expected[section.id]);
    }
  });

  test("hover opens one panel at a time; mouse leave and a click close it", async ({ page }) => {
    await open(page, "/");
    await item(page, "Who We Serve").hover();
    await expect(panel(page, "serve")).toBeVisible();
    await item(page, "What We Do").hover();
    await expect(panel(page, "do")).toBeVisible();
    await expect(page.locator(".mega-panel:visible")).toHaveCount(1);

    await page.mouse.move(640, 700);
    await expect(page.locator(".mega-panel:visible")).toHaveCount(0);

    await item(page, "Who We Are").hover();
    await panel(page, "are").getByRole("link", { name: "Our Ethos" }).click();
    await expect(page).toHaveURL(/\/weare#ethos$/);
    await expect(page.locator(".mega-panel:visible")).toHaveCount(0);
  });

  test("clicking the toggle of a panel the mouse opened keeps it open", async ({ page }) => {
    await open(page, "/");
    const toggle = page.getByRole("button", { name: "Who We Serve menu" });
    await item(page, "Who We Serve").hover();
    await expect(panel(page, "serve")).toBeVisible();
    await toggle.click();
    await expect(panel(page, "serve")).toBeVisible();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await toggle.click();
    await expect(panel(page, "serve")).toBeHidden();
  });

  test("keyboard: the toggle opens the panel, Esc closes it and returns focus", async ({
    page,
  }) => {
    await open(page, "/");
    const toggle = page.getByRole("button", { name: "What We Do menu" });
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Tab");
    await expect(panel(page, "do").getByRole("link", { name: "What We Do" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(panel(page, "do").getByRole("link", { name: "Capabilities" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(panel(page, "do")).toBeHidden();
    await expect(toggle).toBeFocused();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
  });

  test("the Contact Us button leads to /contact-us", async ({ page }) => {
    await open(page, "/weare");
    await page.getByRole("banner").getByRole("link", { name: "Contact Us" }).click();
    await expect(page).toHaveURL(/\/contact-us$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Learn More");
  });
});

test.describe("at 1024 px", () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test("an open panel's link is the only one underlined, not the current page's as well", async ({
    page,
  }) => {
    await open(page, "/wedo");
    const underline = (label: string) =>
      page
        .locator(".mega-nav__link", { hasText: label })
        .evaluate((el) => getComputedStyle(el).borderBottomColor);
    const accent = await underline("What We Do");
    expect(accent).not.toBe("rgba(0, 0, 0, 0)");
    await item(page, "Who We Serve").hover();
    await expect(panel(page, "serve")).toBeVisible();
    expect(await underline("Who We Serve")).toBe(accent);
    expect(await underline("What We Do")).toBe("rgba(0, 0, 0, 0)");
    // Closed again, the current page is underlined again. The logo is outside
    // every section, wherever the panel ends.
    await page.mouse.move(40, 30);
    await expect(panel(page, "serve")).toBeHidden();
    expect(await underline("What We Do")).toBe(accent);
  });
});

test.describe("touch", () => {
  test.use({ viewport: { width: 1280, height: 800 }, hasTouch: true });

  test("tapping the toggle opens and closes a panel", async ({ page }) => {
    await open(page, "/");
    const toggle = page.getByRole("button", { name: "Who We Are menu" });
    await toggle.tap();
    await expect(panel(page, "are")).toBeVisible();
    await toggle.tap();
    await expect(panel(page, "are")).toBeHidden();
  });
});

test.describe("small-screen menu", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("collapses the four links behind a button that Esc closes", async ({ page }) => {
    await open(page, "/");
    const button = page.getByRole("button", { name: "Menu" });
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(page.locator("#mobile-menu")).toBeHidden();
    await button.click();
    const links = page.locator("#mobile-menu a");
    await expect(links).toHaveText(["Who We Serve", "What We Do", "Who We Are", "Contact Us"]);
    await page.keyboard.press("Escape");
    await expect(page.locator("#mobile-menu")).toBeHidden();
    await expect(button).toBeFocused();

    await button.click();
    await links.filter({ hasText: "What We Do" }).click();
    await expect(page).toHaveURL(/\/wedo$/);
    await expect(page.locator("#mobile-menu")).toBeHidden();
  });

  test("the button is named Menu while closed and Close menu while open", async ({ page }) => {
    await open(page, "/");
    const button = page.locator("button.mobile-nav__toggle");
    await expect(button).toHaveAccessibleName("Menu");
    await expect(button).toHaveText("Menu");
    await button.click();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(button).toHaveAccessibleName("Close menu");
    await page.keyboard.press("Escape");
    await expect(button).toHaveAccessibleName("Menu");
  });

  test("shows a close icon while open and closes on a tap outside", async ({ page }) => {
    await open(page, "/");
    const button = page.getByRole("button", { name: "Menu" });
    const bars = button.locator(".mobile-nav__bars");
    const middleBar = () => bars.evaluate((el) => getComputedStyle(el).backgroundColor);
    const upperBar = () => bars.evaluate((el) => getComputedStyle(el, "::before").transform);
    expect(await upperBar()).toBe("none");
    const closedColour = await middleBar();

    await button.click();
    await expect(page.locator("#mobile-menu")).toBeVisible();
    // The middle bar disappears and the outer two cross: ×.
    expect(await middleBar()).toBe("rgba(0, 0, 0, 0)");
    expect(await middleBar()).not.toBe(closedColour);
    expect(await upperBar()).toMatch(/^matrix\(0\.70\d+, 0\.70\d+, -0\.70\d+, 0\.70\d+/);

    // A tap on the page below the menu (the pointer goes down outside it).
    await page.mouse.click(20, 600);
    await expect(page.locator("#mobile-menu")).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");
    expect(await upperBar()).toBe("none");
  });
});

test.describe("small-screen menu on a short screen", () => {
  for (const viewport of [
    { width: 667, height: 320 },
    { width: 320, height: 256 },
  ]) {
    test(`at ${viewport.width}×${viewport.height} the open menu scrolls within itself to its last link, and the page stays still`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await open(page, "/weare");
      await page.getByRole("button", { name: "Menu" }).click();
      const menu = page.locator("#mobile-menu");
      await expect(menu).toBeVisible();
      const contact = menu.getByRole("link", { name: "Contact Us" });

      // The menu ends at the bottom of the screen and scrolls what does not fit.
      const box = await menu.evaluate((el) => ({
        bottom: el.getBoundingClientRect().bottom,
        overflowY: getComputedStyle(el).overflowY,
        overscroll: getComputedStyle(el).overscrollBehaviorY,
        overflows: el.scrollHeight > el.clientHeight,
      }));
      expect(box.bottom).toBeLessThanOrEqual(viewport.height);
      expect(box.overflowY).toBe("auto");
      expect(box.overflows).toBe(true);
      // What keeps a scroll at the menu's end from passing on to the page.
      expect(box.overscroll).toBe("contain");

      // A swipe (a wheel here) over the menu scrolls the menu to its end, not the page.
      const { x, y } = (await menu.boundingBox()) ?? { x: 0, y: 0 };
      await page.mouse.move(x + 40, y + 40);
      await page.mouse.wheel(0, 2000);
      await expect
        .poll(() => menu.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop))
        .toBeLessThanOrEqual(1);
      await expectWhollyInView(contact);
      // At its end, a second wheel would pass its scroll on to the page if allowed.
      await page.mouse.wheel(0, 2000);
      // Nothing tells of a scroll that did not happen, but wheels are handled
      // in order: once a third wheel, upwards, has scrolled the menu and that
      // scroll has ended, the second has done all it was going to do.
      await menu.evaluate((el) => {
        const scrolledBack = new Promise<void>((resolve) => {
          const end = el.scrollHeight - el.clientHeight;
          const done = () => {
            if (el.scrollTop < end - 1) resolve();
            else el.addEventListener("scrollend", done, { once: true });
          };
          el.addEventListener("scrollend", done, { once: true });
        });
        Object.assign(window, { scrolledBack });
      });
      await page.mouse.wheel(0, -100);
      await page.evaluate(
        () => (window as unknown as { scrolledBack: Promise<void> }).scrolledBack,
      );
      expect(await page.evaluate(() => window.scrollY)).toBe(0);

      await contact.click();
      await expect(page).toHaveURL(/\/contact-us$/);
    });
  }
});

test.describe("mega-menu closing", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("closes when its own top link is clicked", async ({ page }) => {
    await open(page, "/");
    await item(page, "What We Do").hover();
    await expect(panel(page, "do")).toBeVisible();
    await page.locator(".mega-nav__link", { hasText: "What We Do" }).click();
    await expect(page).toHaveURL(/\/wedo$/);
    await expect(panel(page, "do")).toBeHidden();
  });

  test("closes on every route change, even one the menu did not make", async ({ page }) => {
    await open(page, "/");
    await page.locator(".mega-nav__link", { hasText: "What We Do" }).click();
    await expect(page).toHaveURL(/\/wedo$/);
    const toggle = page.getByRole("button", { name: "Who We Are menu" });
    await toggle.click();
    await expect(panel(page, "are")).toBeVisible();
    // The browser's Back button: focus stays on the toggle, the location changes.
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
    await expect(toggle).toBeFocused();
    await expect(panel(page, "are")).toBeHidden();
  });
});

test.describe("anchors", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("a menu link with an anchor scrolls smoothly to it", async ({ page }) => {
    type Call = { id: string; behavior: string | undefined };
    // Every scroll the page asks of an element is written down (and still
    // done): smooth is a request to the browser, and the request is what the
    // site decides. Counting drawn frames would say more about the CPU.
    await page.addInitScript(() => {
      const calls: Call[] = [];
      (window as unknown as { scrollCalls: Call[] }).scrollCalls = calls;
      const scrollIntoView = Element.prototype.scrollIntoView;
      Element.prototype.scrollIntoView = function (
        this: Element,
        options?: boolean | ScrollIntoViewOptions,
      ) {
        calls.push({
          id: this.id,
          behavior: typeof options === "object" ? options.behavior : undefined,
        });
        scrollIntoView.call(this, options);
      };
    });
    await open(page, "/");
    const scrollCalls = () =>
      page.evaluate(() => (window as unknown as { scrollCalls: Call[] }).scrollCalls);
    await item(page, "What We Do").hover();
    await panel(page, "do").getByRole("link", { name: "Methodology" }).click();
    await expect(page).toHaveURL(/\/wedo#methodology$/);
    await expect.poll(scrollCalls).toContainEqual({ id: "methodology", behavior: "smooth" });
    // It arrives: the section's top just under the header.
    await expect
      .poll(() =>
        page.locator("#methodology").evaluate((el) => Math.round(el.getBoundingClientRect().top)),
      )
      .toBeLessThan(120);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    // Only smooth requests: nothing jumped there first.
    expect((await scrollCalls()).filter((call) => call.behavior !== "smooth")).toEqual([]);
  });

  test("a menu link to a page whose list is still on its way scrolls once the page is there", async ({
    page,
  }) => {
    const capabilities = /\/api\/v1\/items\/?\?category=capabilities/;
    await open(page, "/");
    const list = await holdApi(page, capabilities);
    await item(page, "What We Do").hover();
    const link = panel(page, "do").getByRole("link", { name: "Capabilities", exact: true });
    // Playwright may scroll the open panel's link into view before it clicks;
    // from the click on, the page is the app's to move.
    await link.scrollIntoViewIfNeeded();
    const scrolledTo = await page.evaluate(() => window.scrollY);
    await link.click();
    // The list is asked for and held: Home stays, unmoved, until it arrives.
    await expect.poll(() => list.requests.length).toBe(1);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator("#capabilities")).toHaveCount(0);
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolledTo);
    list.release();
    await expect(page).toHaveURL(/\/wedo#capabilities$/);
    await expect
      .poll(() =>
        page.locator("#capabilities").evaluate((el) => Math.round(el.getBoundingClientRect().top)),
      )
      .toBeLessThan(120);
  });
});
