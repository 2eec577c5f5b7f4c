import { DIALOG } from "../src/shared/constants.ts";
import { SCREEN_PATHS } from "../src/shared/routes.ts";
import { mockApi } from "./support/api.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { alertDialog, open, waitUntilSettled } from "./support/page.ts";
import { expect, test } from "./support/test.ts";

// At 1280 px, with the focus indicators' check in the same visit: focus-contrast.spec.ts.
test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 900 } });

  for (const path of SCREEN_PATHS) {
    test(`axe finds no violations on ${path}`, async ({ page }) => {
      await open(page, path);
      await waitUntilSettled(page);
      await expectNoAxeViolations(page);
    });
  }
});

test.describe("with the menus and dialogs open", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("a mega-menu panel open", async ({ page }) => {
    await open(page, "/");
    await page.getByRole("button", { name: "Who We Serve menu" }).click();
    await expect(page.locator("#panel-serve")).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test("an outcome dialog open", async ({ page }) => {
    await mockApi(page, /\/api\/v1\/subscribe/, { status: 201 });
    await open(page, "/");
    await page.getByRole("textbox", { name: "Email address" }).fill("a11y@example.com");
    await page.getByRole("button", { name: "Subscribe" }).click();
    await expect(alertDialog(page)).toContainText(DIALOG.subscribed);
    await expectNoAxeViolations(page);
  });
});

test.describe("small-screen menu open", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("axe finds no violations", async ({ page }) => {
    await open(page, "/");
    await page.getByRole("button", { name: "Menu" }).click();
    await expectNoAxeViolations(page);
  });
});
