import { AUTH_PATHS, AUTH_TEXTS } from "../src/shared/admin/auth.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { consoleAccount, signInThroughForm } from "./support/console.ts";
import { findInMail } from "./support/mailbox.ts";
import { expectNoSidewaysScroll } from "./support/page.ts";
import { expect, loadFailure, test } from "./support/test.ts";

test("an owner signs in, sees every area, and signs out", async ({ page }) => {
  const owner = await consoleAccount("owner", "sign-in");
  // Every console request the first screen makes (its list, its line of
  // turned-away posts, the new-inquiry count) must be answered before signing
  // out, or it would end in 401: the ones under way are counted as they go.
  const underWay = new Set<unknown>();
  const isConsoleApi = (url: string) => new URL(url).pathname.startsWith("/api/admin/");
  page.on("request", (request) => {
    if (isConsoleApi(request.url())) underWay.add(request);
  });
  page.on("requestfinished", (request) => underWay.delete(request));
  page.on("requestfailed", (request) => underWay.delete(request));
  const firstScreen = Promise.all(
    [/\/api\/admin\/inquiries\?/, /\/api\/admin\/defences$/].map((url) =>
      page.waitForResponse(url),
    ),
  );
  await signInThroughForm(page, owner);
  await firstScreen;
  const nav = page.getByRole("navigation", { name: "Console" });
  for (const area of ["Inquiries", "Subscribers", "Content", "People", "Audit log"]) {
    await expect(nav.getByRole("link", { name: area })).toBeVisible();
  }
  await expect.poll(() => underWay.size).toBe(0);
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
  const refusal = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === AUTH_PATHS.session && response.status() === 429,
  );
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText(AUTH_TEXTS.locked);

  // The refusal says how many seconds the lock has left; from then on the right password works.
  const retryAfterMs = Number((await refusal).headers()["retry-after"]) * 1000;
  expect(retryAfterMs).toBeGreaterThan(0);
  const lockEnds = Date.now() + retryAfterMs;
  await expect.poll(() => Date.now() >= lockEnds, { timeout: retryAfterMs + 5_000 }).toBe(true);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("navigation", { name: "Console" })).toBeVisible();
});

test("a forgotten password is reset through the e-mailed link", async ({ page, browser }) => {
  const account = await consoleAccount("editor", "forgotten");
  await page.goto("/admin");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await page.getByLabel("E-mail address of your account").fill(account.email);
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.getByRole("status")).toHaveText(AUTH_TEXTS.resetSent);
  await expectNoAxeViolations(page);

  const resetLink = /https?:\/\/\S+#token=[\w-]{43}/;
  await expect.poll(() => findInMail(account.email, resetLink), { timeout: 10_000 }).toBeDefined();
  const linkPath = new URL((await findInMail(account.email, resetLink)) as string);
  const fresh = await browser.newContext();
  const visitor = await fresh.newPage();
  await visitor.goto(`${linkPath.pathname}${linkPath.hash}`);
  await visitor.getByLabel("New password").fill("a freshly chosen passphrase");
  await visitor.getByLabel("The same password again").fill("a freshly chosen passphrase");
  await visitor.getByRole("button", { name: "Set password" }).click();
  await expect(visitor.getByRole("status")).toHaveText(AUTH_TEXTS.passwordSet);
  await expectNoAxeViolations(visitor);
  // The token has left the address bar.
  expect(new URL(visitor.url()).hash).toBe("");

  await visitor.getByRole("link", { name: "Sign in" }).click();
  await signInThroughForm(visitor, { ...account, password: "a freshly chosen passphrase" });
  await fresh.close();
});

for (const width of [1440, 375]) {
  test(`the sign-in screen and the frame pass axe and work by keyboard at ${width} px`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const account = await consoleAccount("owner", `keyboard-${width}`);
    await page.goto("/admin");
    await expectNoAxeViolations(page);
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("E-mail address")).toBeFocused();
    await page.keyboard.type(account.email);
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Password")).toBeFocused();
    await page.keyboard.type(account.password);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("navigation", { name: "Console" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoAxeViolations(page);
    await expectNoSidewaysScroll(page);
  });
}

test("a wrong sign-in shows its refusal, and a missing field its reason, next to the form", async ({
  page,
  expectedErrors,
}) => {
  expectedErrors.add(loadFailure(401));
  await page.goto("/admin");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Enter an e-mail address.")).toBeVisible();
  await expect(page.getByLabel("E-mail address")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("E-mail address").fill("nobody@firm.example");
  await page.getByLabel("Password").fill("not a password of anyone");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText(AUTH_TEXTS.wrongCredentials);
  // Nothing typed is lost.
  await expect(page.getByLabel("E-mail address")).toHaveValue("nobody@firm.example");
  await expectNoAxeViolations(page);
});

test("writes the sign-in screens' screenshots @screenshots", async ({ page }) => {
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/admin");
    await expect(page.getByRole("heading", { name: "Sign in to the console" })).toBeVisible();
    await page.screenshot({ path: `docs/screenshots/admin/sign-in-${width}.png` });
    await page.goto("/admin/forgot-password");
    await expect(page.getByRole("heading", { name: "Set a new password" })).toBeVisible();
    await page.screenshot({ path: `docs/screenshots/admin/forgot-password-${width}.png` });
  }
});
