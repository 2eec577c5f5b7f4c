import { expect, test } from "@playwright/test";
import { PRERENDERED_PATHS } from "../src/shared/routes.ts";

for (const path of PRERENDERED_PATHS) {
  test(`${path} loads with header and footer and no console errors`, async ({ page }) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));

    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(errors).toEqual([]);
  });
}

test("an unknown path shows the Home page with status 404", async ({ page }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  const home = await (await page.request.get("/")).text();
  const heading = /<h1[^>]*>(.*?)<\/h1>/.exec(home)?.[1];
  expect(heading).toBeTruthy();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(String(heading));
  await expect(page.getByRole("banner")).toBeVisible();
});
