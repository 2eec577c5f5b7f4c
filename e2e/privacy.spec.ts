/**
 * The privacy notice: reached through the client-side router from the footer
 * and from beside both forms, and readable at a phone's width. The same
 * links without JavaScript are plain links in the served HTML, tested there
 * (test/features/pages/privacy-links.test.ts).
 * Its text is the seed's (content/privacy.md); the console's edit of it is
 * tested with the server (test/features/content/site-facts.test.ts).
 */

import site from "../content/site.json" with { type: "json" };
import { PRIVACY_LINES } from "../src/shared/routes.ts";
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
    line: PRIVACY_LINES.inquiry,
  },
  {
    name: "subscribe form",
    path: "/",
    form: "footer form.subscribe",
    line: PRIVACY_LINES.subscription,
  },
];

test.describe("with JavaScript", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the footer of every page leads to the privacy notice", async ({ page }) => {
    await open(page, "/weare");
    await noticeLink(page.locator("footer .site-footer__legal")).click();
    await expectNotice(page);
  });

  for (const { name, path, form, line } of FORMS) {
    test(`the line under the ${name} leads to the privacy notice`, async ({ page }) => {
      await open(page, path);
      const scope = page.locator(form);
      await expect(scope.locator(".privacy-note")).toContainText(line);
      await noticeLink(scope).click();
      await expectNotice(page);
    });
  }
});

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
