import { SCREEN_PATHS } from "../src/shared/routes.ts";
import { open, waitUntilSettled } from "./support/page.ts";
import { expect, loadFailure, test } from "./support/test.ts";

for (const path of SCREEN_PATHS) {
  // Console errors and page errors fail every test (support/test.ts); this one
  // also waits for every list of the page, so late errors are seen too.
  test(`${path} loads with header and footer and no console errors`, async ({ page }) => {
    const response = await open(page, path);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
    await waitUntilSettled(page);
  });
}

test("an unknown path shows the Home page with status 404", async ({ page, expectedErrors }) => {
  expectedErrors.add(loadFailure(404), { url: /\/no\/such\/page$/ });
  const response = await open(page, "/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Business + Technology");
  await expect(page.getByRole("heading", { name: /You Know the Business/ })).toBeVisible();
  await expect(page.getByRole("banner")).toBeVisible();
});
