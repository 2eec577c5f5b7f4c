import { expect, test } from "@playwright/test";
import { ERROR_SCREEN_HEADING } from "../src/shared/constants.ts";
import { mockApi } from "./support/api.ts";

test("a route that fails while rendering shows the default error screen with the error text", async ({
  page,
}) => {
  await mockApi(page, /\/api\/v1\/items\/?\?category=capabilities/, { status: 200, body: [null] });
  await page.goto("/wedo");
  await expect(page.getByRole("heading", { level: 2, name: ERROR_SCREEN_HEADING })).toBeVisible();
  await expect(page.getByRole("heading", { level: 3 })).toContainText(
    "Cannot read properties of null",
  );
  await expect(page.locator("pre")).toHaveCount(0);
});
