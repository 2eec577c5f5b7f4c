import { AUTH_TEXTS } from "../src/shared/admin/auth.ts";
import { accountLockedUntil, consoleAccount, signInToConsole } from "./support/console.ts";
import { expect, loadFailure, test } from "./support/test.ts";

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

test("failed sign-ins lock an account, which recovers once the lock has passed", async ({
  page,
  expectedErrors,
}) => {
  const account = await consoleAccount("viewer", "lock-out");
  // Five refusals (401) reach the account's free limit; the sixth try finds it locked (429).
  expectedErrors.add(loadFailure(401), { times: 5 });
  expectedErrors.add(loadFailure(429));
  await page.goto("/admin");
  const password = page.getByLabel("Password");
  await page.getByLabel("E-mail address").fill(account.email);
  for (let attempt = 1; attempt <= 5; attempt++) {
    await password.fill(`wrong guess ${attempt}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert")).toHaveText(AUTH_TEXTS.wrongCredentials);
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  }
  await password.fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText(AUTH_TEXTS.locked);

  await expect
    .poll(async () => (await accountLockedUntil(account.email)) < Date.now(), { timeout: 10_000 })
    .toBe(true);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("navigation", { name: "Console" })).toBeVisible();
});
