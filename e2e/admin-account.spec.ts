/**
 * The second factor in the browser: a person sets up TOTP from the key the
 * account screen shows under its QR code (the test is the authenticator app),
 * keeps the recovery codes, signs out, and signs in with password and code.
 * Every state passes axe. With `npm run screenshots:console` it also writes the
 * account screen's screenshots.
 */
import { mkdirSync } from "node:fs";
import { generate } from "otplib";
import { RECOVERY_CODE_COUNT } from "../src/shared/admin/account.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { type ConsoleAccount, consoleAccount, signInThroughForm } from "./support/console.ts";
import { expect, loadFailure, type Page, test } from "./support/test.ts";

/** Turns the second factor on through the screen; the key it showed, without its spaces. */
async function enrol(page: Page): Promise<string> {
  const section = page.getByRole("region", { name: "Second factor" });
  await section.getByRole("button", { name: "Set up an authenticator app" }).click();
  // The QR code is drawn by the server and shown from a data: URL, never fetched elsewhere.
  const qrCode = section.getByRole("img", { name: "QR code for your authenticator app" });
  await expect(qrCode).toBeVisible();
  await expect(qrCode).toHaveAttribute("src", /^data:image\/svg\+xml,/);
  const shown = section.locator(".totp-secret");
  await expect(shown).toHaveText(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
  await expect(
    section.getByRole("link", { name: "open it in your authenticator app" }),
  ).toHaveAttribute("href", /^otpauth:\/\/totp\//);
  await expectNoAxeViolations(page);
  const secret = ((await shown.textContent()) ?? "").replace(/\s/g, "");
  await section.getByLabel("Code from the app").fill(await generate({ secret }));
  await section.getByRole("button", { name: "Turn on the second factor" }).click();
  await expect(section.getByRole("heading", { name: "Your recovery codes" })).toBeVisible();
  await expect(
    section.getByRole("list", { name: "Your recovery codes" }).getByRole("listitem"),
  ).toHaveCount(RECOVERY_CODE_COUNT);
  await expectNoAxeViolations(page);
  await section.getByRole("button", { name: "I have saved them" }).click();
  await expect(
    section.getByText(`${RECOVERY_CODE_COUNT} of ${RECOVERY_CODE_COUNT} recovery codes are left`),
  ).toBeVisible();
  return secret;
}

async function signInWithCode(page: Page, account: ConsoleAccount, code: string) {
  await page.getByLabel("E-mail address").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toContainText("Enter the 6-digit code");
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("navigation", { name: "Console" })).toBeVisible();
}

test("sets up an authenticator app, then signs in with password and code", async ({
  page,
  expectedErrors,
}) => {
  // The sign-in without a code is answered 401 asking for one, which Chromium reports.
  expectedErrors.add(loadFailure(401), { url: /\/api\/admin\/session$/ });
  const account = await consoleAccount("editor", "account-totp");
  await signInThroughForm(page, account, "/admin/account");
  await expect(page.getByRole("heading", { name: "Your account", level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "Where you are signed in" })).toContainText(
    "This browser",
  );
  await expectNoAxeViolations(page);

  const secret = await enrol(page);
  await expect(
    page.getByRole("region", { name: "Second factor" }).getByText("On", { exact: true }),
  ).toBeVisible();

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Sign in to the console" })).toBeVisible();
  await signInWithCode(page, account, await generate({ secret }));
  await expect(page).toHaveURL(/\/admin\/account$/);
  await expectNoAxeViolations(page);
});

test("changes the password, with the current one checked first", async ({
  page,
  expectedErrors,
}) => {
  // The wrong current password is answered 400, which Chromium reports.
  expectedErrors.add(loadFailure(400), { url: /\/api\/admin\/account\/password$/ });
  const account = await consoleAccount("viewer", "account-password");
  await signInThroughForm(page, account, "/admin/account");
  const section = page.getByRole("region", { name: "Password" });
  await section.getByLabel("Current password").fill("not the password at all");
  await section.getByLabel("New password", { exact: true }).fill("a brand new long passphrase");
  await section.getByLabel("The new password again").fill("a brand new long passphrase");
  await section.getByRole("button", { name: "Change password" }).click();
  await expect(section.getByText("Your current password is not correct.")).toBeVisible();
  await expectNoAxeViolations(page);

  await section.getByLabel("Current password").fill(account.password);
  await section.getByRole("button", { name: "Change password" }).click();
  await expect(section.getByRole("status")).toContainText("Your password is changed.");
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await signInThroughForm(page, { ...account, password: "a brand new long passphrase" });
});

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("the account screen fits and passes axe", async ({ page }) => {
    await signInThroughForm(
      page,
      await consoleAccount("viewer", "account-narrow"),
      "/admin/account",
    );
    await expect(page.getByRole("region", { name: "Where you are signed in" })).toBeVisible();
    await expectNoAxeViolations(page);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);
  });
});

test("writes the account screen's screenshots @screenshots", async ({ page }) => {
  const dir = "docs/screenshots/admin";
  mkdirSync(dir, { recursive: true });
  await signInThroughForm(page, await consoleAccount("editor", "Daniel"), "/admin/account");
  const section = page.getByRole("region", { name: "Second factor" });
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/admin/account");
    await expect(page.getByRole("region", { name: "Where you are signed in" })).toBeVisible();
    await page.screenshot({ path: `${dir}/account-${width}.png`, fullPage: true });
    await section.getByRole("button", { name: "Set up an authenticator app" }).click();
    await expect(section.locator(".totp-secret")).toBeVisible();
    await expect(
      section.getByRole("img", { name: "QR code for your authenticator app" }),
    ).toBeVisible();
    await page.screenshot({ path: `${dir}/account-totp-setup-${width}.png`, fullPage: true });
  }
});
