/**
 * The check of support/test.ts itself: a console error or an uncaught error in
 * the page fails a test unless the test declares it, and a declared error
 * that does not happen fails it too. Each failing case has a twin that
 * declares the same error and passes, so the failure is the check's own.
 */
import { open } from "./support/page.ts";
import { expect, type Page, test } from "./support/test.ts";

const LOGGED = "deliberate console error from the fixture test";
const THROWN = "deliberate uncaught error from the fixture test";

async function logConsoleError(page: Page) {
  await open(page, "/");
  const logged = page.waitForEvent("console", (message) => message.text() === LOGGED);
  await page.evaluate((text) => console.error(text), LOGGED);
  await logged;
}

async function throwUncaught(page: Page) {
  await open(page, "/");
  const thrown = page.waitForEvent("pageerror", (error) => error.message === THROWN);
  // Thrown from a microtask, so it escapes to the page instead of rejecting evaluate().
  await page.evaluate((text) => {
    queueMicrotask(() => {
      throw new Error(text);
    });
  }, THROWN);
  expect((await thrown).message).toBe(THROWN);
}

test.describe("the page-error check", () => {
  test("a console.error in the page fails the test", async ({ page }) => {
    test.fail();
    await logConsoleError(page);
  });

  test("an uncaught error in the page fails the test", async ({ page }) => {
    test.fail();
    await throwUncaught(page);
  });

  test("a declared console.error lets the test pass", async ({ page, expectedErrors }) => {
    expectedErrors.add(new RegExp(`^${LOGGED}$`));
    await logConsoleError(page);
  });

  test("a declared uncaught error lets the test pass", async ({ page, expectedErrors }) => {
    expectedErrors.add(new RegExp(`^Error: ${THROWN}$`));
    await throwUncaught(page);
  });

  test("a declared error that does not happen fails the test", async ({ page, expectedErrors }) => {
    test.fail();
    expectedErrors.add(new RegExp(`^${LOGGED}$`));
    await open(page, "/");
  });

  test("an error declared once but logged twice fails the test", async ({
    page,
    expectedErrors,
  }) => {
    test.fail();
    expectedErrors.add(new RegExp(`^${LOGGED}$`));
    await logConsoleError(page);
    await logConsoleError(page);
  });
});
