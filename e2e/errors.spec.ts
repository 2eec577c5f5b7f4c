import { ERROR_SCREEN_HEADING } from "../src/shared/constants.ts";
import { mockApi } from "./support/api.ts";
import { arriveFromHome } from "./support/page.ts";
import { expect, test } from "./support/test.ts";

test("a route that fails while rendering shows the default error screen with the error text", async ({
  page,
  expectedErrors,
}) => {
  // React reports the error it caught, and React Router the error it rendered.
  expectedErrors.add(/^TypeError: Cannot read properties of null\b/);
  expectedErrors.add(
    /^React Router caught the following error during render TypeError: Cannot read properties of null\b/,
  );
  // The page is reached in the browser, so its list comes from the API, and
  // the failure comes from rendering that answer, not from hydrating a page.
  await mockApi(page, /\/api\/v1\/items\/?\?category=capabilities/, {
    status: 200,
    body: [null],
  });
  await arriveFromHome(page, "/wedo");
  await expect(page.getByRole("heading", { level: 2, name: ERROR_SCREEN_HEADING })).toBeVisible();
  await expect(page.getByRole("heading", { level: 3 })).toContainText(
    "Cannot read properties of null",
  );
  await expect(page.locator("pre")).toHaveCount(0);
});
