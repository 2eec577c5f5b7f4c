/**
 * In the browser: an editor types into a capability and sees the draft
 * saved while /wedo keeps the published text; opens the preview, the real
 * page with the new text; schedules it and cancels that; publishes it, and
 * /wedo shows it. axe checks each state, and the draft's controls fit a
 * 375 px screen. The test puts the capability's text back before it ends
 * (support/content-server.ts).
 */
import { expectNoAxeViolations } from "./support/axe.ts";
import { signInToConsole } from "./support/console.ts";
import { expect, type Page, test } from "./support/content-server.ts";
import { expectWithinWindowWidth } from "./support/page.ts";

const DRAFT_TEXT = "Forecasts your finance team trusts, from the data you already keep.";

const firstCapability = (page: Page) => page.locator(".entries > li .entry__title a").first();

/** Types `text` as the description, waits for the draft to be saved, then publishes it. */
async function publishDescription(page: Page, text: string) {
  await page.getByLabel("Description").fill(text);
  await expect(page.getByTestId("autosave-status")).toHaveText(/^Draft saved at \d\d:\d\d$/);
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(
    page.getByText(/^Published as version \d+\. The site shows it now\.$/),
  ).toBeVisible();
}

for (const width of [1440, 375]) {
  test(`an editor drafts, previews and publishes a capability at ${width} px`, async ({
    page,
    editor,
  }) => {
    await page.setViewportSize({ width, height: 1000 });
    await signInToConsole(page, editor, "/admin/content/capabilities");
    await firstCapability(page).click();
    const description = page.getByLabel("Description");
    const published = await description.inputValue();
    await expect(page.getByText(/^The site shows version \d+\./)).toBeVisible();
    await expectNoAxeViolations(page);

    try {
      // Typed: saved as a draft a moment later; the site keeps the published text.
      await description.fill(DRAFT_TEXT);
      await expect(page.getByTestId("autosave-status")).toHaveText(/^Draft saved at \d\d:\d\d$/);
      const draft = page.getByRole("region", { name: "Draft" });
      await expect(draft).toContainText(`Saved by ${editor.email}`);
      await expectNoAxeViolations(page);
      await expectWithinWindowWidth(page, draft);
      await expectWithinWindowWidth(
        page,
        page.getByRole("button", { name: "Publish", exact: true }),
      );

      const site = await page.context().newPage();
      await site.goto("/wedo");
      await expect(site.locator("main")).toContainText(published);
      await expect(site.locator("main")).not.toContainText(DRAFT_TEXT);

      // The preview: the real page, with the draft in it.
      const opened = page.context().waitForEvent("page");
      await draft.getByRole("button", { name: /^Preview draft/ }).click();
      const preview = await opened;
      await expect(preview).toHaveURL(/\/wedo\?preview=[^#]+#capabilities$/);
      await expect(preview.locator("main")).toContainText(DRAFT_TEXT);
      await preview.close();
      // The same page without the link is still the public one.
      await site.reload();
      await expect(site.locator("main")).not.toContainText(DRAFT_TEXT);

      // Scheduled, shown with its time, and cancelled.
      await draft.getByLabel("Publish at").fill("2099-01-02T09:30");
      await draft.getByRole("button", { name: "Schedule" }).click();
      await expect(draft.getByText(/^Scheduled to publish on 2 Jan 2099, 09:30/)).toBeVisible();
      await expectNoAxeViolations(page);
      // The list marks the record with its time.
      await page.getByRole("link", { name: "← Capabilities" }).click();
      await expect(page.getByText("Draft, publishes 2 Jan 2099, 09:30")).toBeVisible();
      await firstCapability(page).click();
      await draft.getByRole("button", { name: "Cancel schedule" }).click();
      await expect(draft.getByLabel("Publish at")).toBeVisible();

      // Published: the site shows it, and the draft is gone.
      await page.getByRole("button", { name: "Publish", exact: true }).click();
      await expect(
        page.getByText(/^Published as version \d+\. The site shows it now\.$/),
      ).toBeVisible();
      await expect(page.getByRole("region", { name: "Draft" })).toHaveCount(0);
      await site.reload();
      await expect(site.locator("main")).toContainText(DRAFT_TEXT);
      await expectNoAxeViolations(page);
    } finally {
      await publishDescription(page, published);
    }
  });
}
