import { consoleAccount, signInToConsole } from "./support/console.ts";
import { expect, test } from "./support/test.ts";

test("an owner signs in, sees every area, and signs out", async ({ page }) => {
  const owner = await consoleAccount("owner", "sign-in");
  await signInToConsole(page, owner);
  const nav = page.getByRole("navigation", { name: "Console" });
  for (const area of ["Inquiries", "Subscribers", "Content", "People", "Audit log"]) {
    await expect(nav.getByRole("link", { name: area })).toBeVisible();
  }
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to the console" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Sign in to the console" })).toBeVisible();
});
