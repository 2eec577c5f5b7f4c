import { expect, test } from "@playwright/test";
import { PRERENDERED_PATHS } from "../src/shared/routes.ts";
import { collectErrors, open } from "./support/page.ts";

for (const path of PRERENDERED_PATHS) {
  test(`${path} loads with header and footer and no console errors`, async ({ page }) => {
    const errors = collectErrors(page);
    const response = await open(page, path);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(errors).toEqual([]);
  });
}

test("an unknown path shows the Home page with status 404", async ({ page }) => {
  const response = await open(page, "/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Business + Technology");
  await expect(page.getByRole("heading", { name: /You Know the Business/ })).toBeVisible();
  await expect(page.getByRole("banner")).toBeVisible();
});
