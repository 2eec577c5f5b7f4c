/**
 * In the browser: an editor changes the mission in the
 * site facts and sees it on / at once, restores the earlier version in one
 * click, and meets the stale-save refusal from a second tab with the typed
 * text kept. axe checks the form in each state, at 1440 and 375 px.
 *
 * Every page shows the site facts, so these tests run on their worker's own
 * server (support/content-server.ts), one after the other, and each puts the
 * facts back as it found them before it ends.
 */
import { randomBytes } from "node:crypto";
import { SITE_FACTS_TEXTS } from "../src/shared/admin/site-facts.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { type ConsoleAccount, signInToConsole } from "./support/console.ts";
import { expect, loadFailure, type Page, test } from "./support/content-server.ts";
import { expectNoSidewaysScroll } from "./support/page.ts";

const FACTS_PATH = "/admin/content/site-facts";

const versions = (page: Page) => page.getByRole("region", { name: "Versions" });
/** The newest version, first in the list: earlier runs of a test leave theirs below it. */
const newestVersion = (page: Page) => versions(page).locator(".version").first();

/** Restores the newest version that is not the current one: the facts as the test found them. */
async function restorePrevious(page: Page) {
  const previous = versions(page)
    .getByRole("button", { name: /^Restore version \d+$/ })
    .first();
  await previous.click();
  await expect(
    versions(page)
      .getByRole("status")
      .filter({ hasText: /^Version \d+ is restored as/ }),
  ).toBeVisible();
}

async function openFacts(page: Page, editor: ConsoleAccount) {
  await signInToConsole(page, editor);
  await page
    .getByRole("navigation", { name: "Console" })
    .getByRole("link", { name: "Content" })
    .click();
  await page
    .getByRole("navigation", { name: "Content lists" })
    .getByRole("link", { name: "Site facts" })
    .click();
  await expect(page.getByRole("heading", { level: 2, name: "Site facts" })).toBeVisible();
  await expect(page.getByLabel("Mission")).not.toHaveValue("");
  await expect(
    versions(page)
      .getByText(/^Version \d+$/)
      .first(),
  ).toBeVisible();
}

test.describe.configure({ mode: "serial" });

test.describe("the site facts", () => {
  test.use({ viewport: { width: 1440, height: 1000 } });

  test("a new mission shows on / once saved, and restoring the earlier version brings the old one back", async ({
    page,
    editor,
  }) => {
    await openFacts(page, editor);
    await expectNoAxeViolations(page);
    const mission = page.getByLabel("Mission");
    const original = await mission.inputValue();
    await expect(page.getByRole("link", { name: /Preview on the site/ })).toHaveAttribute(
      "href",
      "/",
    );

    // Broken facts are refused in the form, each reason next to its field.
    await mission.fill("   ");
    await page.getByLabel("LinkedIn address").fill("http://www.linkedin.com/company/x");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Enter the mission.")).toBeVisible();
    await expect(mission).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText(/^Enter an address that starts with https:\/\//)).toBeVisible();
    await expectNoAxeViolations(page);
    // What was refused is kept in the browser and put back after a reload; the editor discards it.
    await page.reload();
    await expect(page.getByText(/^Put back what you typed/)).toBeVisible();
    await expect(mission).toHaveValue("   ");
    await page.getByRole("button", { name: "Discard it" }).click();
    await expect(mission).toHaveValue(original);

    const changed = `We pair business and technology experts, ${randomBytes(3).toString("hex")} times over.`;
    await mission.fill(changed);
    await expect(page.getByText("Unsaved changes")).toBeVisible();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText(/^Saved as version \d+\. The site shows it now\.$/)).toBeVisible();
    await expect(newestVersion(page).getByText("Changed: Mission")).toBeVisible();
    await expectNoAxeViolations(page);

    const site = await page.context().newPage();
    await site.goto("/");
    await expect(site.getByRole("region", { name: "Our mission" })).toHaveText(changed);
    await expect(site.locator(".site-footer__mission")).toHaveText(changed);
    await expect(site.locator('meta[name="description"]')).toHaveAttribute("content", changed);

    await restorePrevious(page);
    await expect(mission).toHaveValue(original);
    await site.reload();
    await expect(site.getByRole("region", { name: "Our mission" })).toHaveText(original);
    await expectNoAxeViolations(page);
  });

  test("a save from a second tab on a stale version is refused, and the typed text stays", async ({
    page,
    editor,
    expectedErrors,
  }) => {
    expectedErrors.add(loadFailure(409));
    await openFacts(page, editor);
    const second = await page.context().newPage();
    await second.goto(FACTS_PATH);
    const invitation = second.getByLabel("Contact invitation");
    const original = await invitation.inputValue();
    expect(original).not.toBe("");

    const first = `${original} Saved in the first tab.`;
    await page.getByLabel("Contact invitation").fill(first);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText(/^Saved as version \d+\./)).toBeVisible();

    const typed = `${original} Typed in the second tab, on the old version.`;
    await invitation.fill(typed);
    await second.getByRole("button", { name: "Save" }).click();
    await expect(second.getByRole("alert")).toContainText(SITE_FACTS_TEXTS.stale);
    await expect(invitation).toHaveValue(typed);
    await expectNoAxeViolations(second);

    await second.getByRole("button", { name: "Load their version" }).click();
    await expect(invitation).toHaveValue(first);

    // The facts as they were, for the tests that read the pages.
    await restorePrevious(second);
    await expect(invitation).toHaveValue(original);
    const site = await page.context().newPage();
    await site.goto("/contact-us");
    await expect(site.getByText(original, { exact: true })).toBeVisible();
  });

  test.describe("at 375 px", () => {
    test.use({ viewport: { width: 375, height: 800 } });

    test("the form and its versions fit the screen and pass axe", async ({ page, editor }) => {
      await openFacts(page, editor);
      await expectNoAxeViolations(page);
      await expectNoSidewaysScroll(page);
      await versions(page).getByText("What it said").first().click();
      await expectNoAxeViolations(page);
    });
  });
});

test("writes the site facts' screenshots @screenshots", async ({ page, editor }) => {
  await openFacts(page, editor);
  // A second version, so the versions show a change; put back at the end.
  const mission = page.getByLabel("Mission");
  const original = await mission.inputValue();
  await mission.fill(`${original} From the first workshop to the last release.`);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(/^Saved as version \d+\./)).toBeVisible();
  await expect(newestVersion(page).getByText("Changed: Mission")).toBeVisible();

  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(FACTS_PATH);
    await expect(newestVersion(page).getByText("Changed: Mission")).toBeVisible();
    await versions(page).getByText("What it said").first().click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({
      path: `docs/screenshots/admin/content-facts-${width}.png`,
      fullPage: true,
    });
  }
  await restorePrevious(page);
  await expect(mission).toHaveValue(original);
});
