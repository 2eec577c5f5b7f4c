import { expect, type Page } from "@playwright/test";

/** Opens a path and waits until React has hydrated it, so clicks are handled. */
export async function open(page: Page, path: string) {
  const response = await page.goto(path);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  return response;
}

/** Collects console errors and uncaught exceptions of a page. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/** The alert dialog of spec §8, by its title and text. */
export function alertDialog(page: Page) {
  return page.getByRole("alertdialog");
}
