/**
 * The privacy notice: reached from the footer of every page and from beside
 * both forms, with JavaScript and without, and readable at a phone's width.
 * Its text is the seed's (content/privacy.md); the console's edit of it is
 * tested with the server (test/features/content/site-facts.test.ts).
 */
import site from "../content/site.json" with { type: "json" };
import { expectNoAxeViolations } from "./support/axe.ts";
import { open } from "./support/page.ts";
import { expect, type Page, test } from "./support/test.ts";

const noticeLink = (scope: ReturnType<Page["locator"]>) =>
  scope.getByRole("link", { name: /privacy notice/i });

async function expectNotice(page: Page) {
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page).toHaveTitle(/^Privacy notice \|/);
  await expect(page.getByRole("heading", { level: 1, name: "Privacy notice" })).toBeVisible();
  for (const heading of [
    "When you send us an inquiry",
    "When you subscribe to Insight",
    "Erasing your details",
    "Who else sees your details",
    "Questions and requests",
  ]) {
    await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
  }
  await expect(page.getByRole("link", { name: site.contactEmail })).toHaveAttribute(
    "href",
    `mailto:${site.contactEmail}`,
  );
}

/** Each form, where it is, and the line under it. */
const FORMS = [
  {
    name: "contact form",
    path: "/contact-us",
    form: "form.inquiry-form",
    line: "We use these details only to answer you.",
  },
  {
    name: "subscribe form",
    path: "/",
    form: "footer form.subscribe",
    line: "Your address is used only to send you Insight.",
  },
];

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled, viewport: { width: 375, height: 740 } });

    const visit = (page: Page, path: string) =>
      javaScriptEnabled ? open(page, path) : page.goto(path);

    test("the footer of every page leads to the privacy notice", async ({ page }) => {
      await visit(page, "/weare");
      await noticeLink(page.locator("footer .site-footer__legal")).click();
      await expectNotice(page);
    });

    for (const { name, path, form, line } of FORMS) {
      test(`the line under the ${name} leads to the privacy notice`, async ({ page }) => {
        await visit(page, path);
        const scope = page.locator(form);
        await expect(scope.locator(".privacy-note")).toContainText(line);
        await noticeLink(scope).click();
        await expectNotice(page);
      });
    }
  });
}

test.describe("the notice's page", () => {
  for (const viewport of [
    { width: 375, height: 740 },
    { width: 1440, height: 900 },
  ]) {
    test(`at ${viewport.width} px it has no accessibility violations and no sideways scroll`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await open(page, "/privacy");
      await expectNotice(page);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
      await expectNoAxeViolations(page);
    });
  }
});
