import { COPYRIGHT_YEAR, ERROR_SCREEN_HEADING } from "../src/shared/constants.ts";
import { SITE } from "../src/shared/site.ts";
import { mockApi } from "./support/api.ts";
import { arriveFromHome } from "./support/page.ts";
import { type ExpectedErrors, expect, type Page, test } from "./support/test.ts";

/**
 * Opens /wedo from Home with a capabilities list it cannot render. The page is
 * reached in the browser, so its list comes from the API, and the failure
 * comes from rendering that answer, not from hydrating a page.
 */
async function arriveAtFailingPage(page: Page, expectedErrors: ExpectedErrors) {
  // React reports the error it caught, and React Router the error it rendered.
  expectedErrors.add(/^TypeError: Cannot read properties of null\b/);
  expectedErrors.add(
    /^React Router caught the following error during render TypeError: Cannot read properties of null\b/,
  );
  await mockApi(page, /\/api\/v1\/items\/?\?category=capabilities/, {
    status: 200,
    body: [null],
  });
  await arriveFromHome(page, "/wedo");
}

test("a route that fails while rendering shows the default error screen with the error text", async ({
  page,
  expectedErrors,
}) => {
  await arriveAtFailingPage(page, expectedErrors);
  await expect(page.getByRole("heading", { level: 2, name: ERROR_SCREEN_HEADING })).toBeVisible();
  await expect(page.getByRole("heading", { level: 3 })).toContainText(
    "Cannot read properties of null",
  );
  await expect(page.locator("pre")).toHaveCount(0);
});

test("the error screen carries the firm's logo, a way home and its footer, and no address", async ({
  page,
  expectedErrors,
}) => {
  await arriveAtFailingPage(page, expectedErrors);
  await expect(page.getByRole("heading", { level: 2, name: ERROR_SCREEN_HEADING })).toBeVisible();
  const logo = page.getByRole("banner").getByRole("link", { name: `${SITE.firmName}, home` });
  await expect(logo).toHaveAttribute("href", "/");
  await expect(logo.getByRole("img")).toHaveJSProperty("complete", true);
  await expect(page.getByRole("link", { name: "Back to the home page" })).toBeVisible();
  await expect(page.getByRole("contentinfo")).toContainText(`© ${COPYRIGHT_YEAR} ${SITE.firmName}`);
  await expect(page.locator("body")).not.toContainText(/https?:\/\/|\/assets\//);
});
