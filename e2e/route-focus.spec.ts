/**
 * A move to another page is announced the way screen readers expect: focus
 * goes to the new page's main heading, so its name is read and the next Tab
 * starts from the top of its content. Not on the first load (the browser
 * reads the new document itself), not when only the anchor changes (the page
 * is the same; the anchor's target is where the visitor goes), and not on
 * Back (the visitor returns to a place mid-page, not to its top): there the
 * page's title is announced instead, by a polite live region.
 */
import { expectNoAxeViolations } from "./support/axe.ts";
import { open } from "./support/page.ts";
import { expect, type Page, test } from "./support/test.ts";

test.use({ viewport: { width: 1440, height: 900 } });

const headerLink = (page: Page, name: string) =>
  page.locator("header").getByRole("link", { name, exact: true });

const focusedTag = (page: Page) => page.evaluate(() => document.activeElement?.tagName ?? "");

test("a menu link moves focus to the new page's heading", async ({ page }) => {
  await open(page, "/");
  await headerLink(page, "Who We Are").click();
  await expect(page).toHaveURL(/\/weare$/);
  await expect(page).toHaveTitle(/Who We Are/);
  const heading = page.getByRole("heading", { level: 1, name: "Who We Are" });
  await expect(heading).toBeFocused();
  // Focused by script, not reachable by Tab.
  await expect(heading).toHaveAttribute("tabindex", "-1");
});

test("a menu link followed by keyboard focuses the heading without a ring around it", async ({
  page,
}) => {
  await open(page, "/");
  await headerLink(page, "What We Do").focus();
  await page.keyboard.press("Enter");
  const heading = page.getByRole("heading", { level: 1, name: "What We Do" });
  await expect(heading).toBeFocused();
  // Not a control: no ring, and the next Tab goes on to the page's links.
  await expect(heading).toHaveCSS("outline-style", "none");
  await page.keyboard.press("Tab");
  await expect(heading).not.toBeFocused();
  expect(await page.evaluate(() => document.activeElement?.closest("main") !== null)).toBe(true);
});

test("Back returns to the place on the page, and leaves focus out of its heading", async ({
  page,
}) => {
  await open(page, "/wedo");
  await headerLink(page, "Contact Us").click();
  await expect(page.getByRole("heading", { level: 1, name: "Learn More" })).toBeFocused();
  await page.goBack();
  await expect(page).toHaveURL(/\/wedo$/);
  await expect(page.getByRole("heading", { level: 1, name: "What We Do" })).not.toBeFocused();
});

test("Back and Forward announce the page they return to", async ({ page }) => {
  await open(page, "/wedo");
  const status = page.getByTestId("page-announcement");
  await expect(status).toHaveAttribute("role", "status");
  await expect(status).toHaveText("");
  await headerLink(page, "Contact Us").click();
  await expect(page).toHaveURL(/\/contact-us$/);
  // A link moves focus to the heading, which is read: nothing else is said.
  await expect(status).toHaveText("");
  await page.goBack();
  await expect(page).toHaveURL(/\/wedo$/);
  // The title follows the address a render later: wait for it before reading it.
  await expect(page).toHaveTitle(/^What We Do/);
  await expect(status).toHaveText(await page.title());
  await page.goForward();
  await expect(page).toHaveURL(/\/contact-us$/);
  await expect(page).toHaveTitle(/^Contact Us/);
  await expect(status).toHaveText(await page.title());
  await expectNoAxeViolations(page);
});

test("the first load leaves focus where the browser puts it", async ({ page }) => {
  await open(page, "/weare");
  expect(await focusedTag(page)).toBe("BODY");
});

test("a link to an anchor on the same page leaves the heading alone", async ({ page }) => {
  await open(page, "/wedo");
  await headerLink(page, "What We Do").hover();
  const methodology = page.locator('header a[href="/wedo#methodology"]').first();
  await methodology.click();
  await expect(page).toHaveURL(/\/wedo#methodology$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
  await expect(page.getByRole("heading", { level: 1 })).not.toBeFocused();
});

test("the skip link still moves focus to the content", async ({ page }) => {
  await open(page, "/wedo");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.locator("main")).toBeFocused();
});
