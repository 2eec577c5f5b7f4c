import { TOKEN_PATTERN } from "../src/server/platform/security/xsrf.ts";
import { ACCENT_COLOR, COPYRIGHT_YEAR, DIALOG } from "../src/shared/constants.ts";
import { FIELD_REASONS } from "../src/shared/field-rules.ts";
import { SITE } from "../src/shared/site.ts";
import { holdApi, mockApi } from "./support/api.ts";
import { alertDialog, open } from "./support/page.ts";
import { expect, loadFailure, type Page, test } from "./support/test.ts";

const SUBSCRIBE = /\/api\/v1\/subscribe/;
const footer = (page: Page) => page.getByRole("contentinfo");
const emailInput = (page: Page) => footer(page).getByRole("textbox", { name: "Email address" });
const subscribeButton = (page: Page) => footer(page).getByRole("button", { name: "Subscribe" });

async function subscribeWith(page: Page, email: string) {
  await emailInput(page).fill(email);
  await subscribeButton(page).click();
}

function rgb(hex: string) {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

test("the footer has the logo, invitation, form, network link and copyright", async ({ page }) => {
  await open(page, "/wedo");
  await expect(footer(page).getByRole("img", { name: `${SITE.firmName}, home` })).toBeVisible();
  await expect(footer(page).getByText(SITE.newsletterInvitation)).toBeVisible();
  // Its link to the archive shows once an issue was sent (test/features/pages/footer-archive.test.ts;
  // the journey there: e2e/insight.spec.ts).
  await expect(emailInput(page)).toHaveAttribute("type", "email");
  await expect(emailInput(page)).toHaveAttribute("required", "");
  const network = footer(page).getByRole("link", { name: new RegExp(SITE.networkName) });
  await expect(network).toHaveAttribute("href", SITE.networkUrl);
  await expect(network).toHaveAttribute("target", "_blank");
  await expect(network).toHaveAttribute("rel", "noopener noreferrer");
  await expect(footer(page).getByText(`© ${COPYRIGHT_YEAR} ${SITE.firmName}`)).toBeVisible();
});

test("subscribing against the real API: 201, then 409 with the server's message", async ({
  page,
  expectedErrors,
}) => {
  expectedErrors.add(loadFailure(409), { url: SUBSCRIBE });
  await open(page, "/");
  const email = `reader-${Date.now()}@example.com`;
  await subscribeWith(page, email);
  await expect(alertDialog(page)).toContainText(DIALOG.successTitle);
  await expect(alertDialog(page)).toContainText(DIALOG.subscribed);
  await expect(emailInput(page)).toHaveValue("");
  await alertDialog(page).getByRole("button", { name: DIALOG.confirm }).click();
  await expect(alertDialog(page)).toBeHidden();

  await subscribeWith(page, email.toUpperCase());
  await expect(alertDialog(page)).toContainText(DIALOG.failureTitle);
  await expect(alertDialog(page)).toContainText("already subscribed");
});

const outcomes = [
  {
    name: "201",
    how: { status: 201, body: { message: "ok" } },
    title: DIALOG.successTitle,
    text: DIALOG.subscribed,
    logged: undefined,
  },
  {
    name: "409",
    how: { status: 409, body: { message: "You are on the list already." } },
    title: DIALOG.failureTitle,
    text: "You are on the list already.",
    logged: loadFailure(409),
  },
  {
    name: "500",
    how: { status: 500, body: { message: "boom" } },
    title: DIALOG.failureTitle,
    text: DIALOG.somethingWrong,
    logged: loadFailure(500),
  },
  {
    name: "a network failure",
    how: { fail: true as const },
    title: DIALOG.failureTitle,
    text: DIALOG.somethingWrong,
    logged: loadFailure("failed"),
  },
];

for (const outcome of outcomes) {
  test(`a ${outcome.name} answer shows "${outcome.title}" / "${outcome.text}"`, async ({
    page,
    expectedErrors,
  }) => {
    if (outcome.logged) expectedErrors.add(outcome.logged, { url: SUBSCRIBE });
    await mockApi(page, SUBSCRIBE, outcome.how);
    await open(page, "/");
    await subscribeWith(page, "someone@example.com");
    const dialog = alertDialog(page);
    await expect(dialog.getByRole("heading")).toHaveText(outcome.title);
    await expect(dialog.getByText(outcome.text, { exact: true })).toBeVisible();
    await expect(dialog.getByRole("button", { name: DIALOG.confirm })).toBeFocused();
    expect(await dialog.evaluate((el) => getComputedStyle(el).borderTopColor)).toBe(
      rgb(ACCENT_COLOR),
    );
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  });
}

test("while subscribing the button shows a spinner and cannot be pressed twice", async ({
  page,
}) => {
  // The answer is held until both extra presses have been tried.
  const subscribe = await holdApi(page, SUBSCRIBE, { status: 201, body: {} });
  await open(page, "/");
  await emailInput(page).fill("slow@example.com");
  const button = footer(page).locator(".subscribe__button");
  await button.click();
  await expect(button).toBeDisabled();
  await expect(button.getByRole("status")).toBeAttached();
  await button.click({ force: true });
  await emailInput(page).press("Enter");
  subscribe.release();
  await expect(alertDialog(page)).toContainText(DIALOG.subscribed);
  await expect(button).toHaveText("Subscribe");
  await expect(button).toBeEnabled();
  expect(subscribe.requests).toHaveLength(1);
});

test("an empty or malformed address is stopped by the browser", async ({ page }) => {
  let requests = 0;
  await page.route(SUBSCRIBE, (route) => {
    requests += 1;
    return route.abort();
  });
  await open(page, "/");
  await subscribeButton(page).click();
  await subscribeWith(page, "not-an-address");
  expect(await emailInput(page).evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(false);
  expect(requests).toBe(0);
});

test("keyboard only: subscribe, read the dialog, close it, focus comes back", async ({ page }) => {
  await mockApi(page, SUBSCRIBE, { status: 201 });
  await open(page, "/contact-us");
  await emailInput(page).focus();
  await page.keyboard.type("keys@example.com");
  await page.keyboard.press("Tab");
  await expect(subscribeButton(page)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(alertDialog(page).getByRole("button", { name: DIALOG.confirm })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(alertDialog(page)).toBeHidden();
  await expect(footer(page).locator(".subscribe__button")).toBeFocused();
});

test("a page served without the token cookie (from a CDN cache) fetches a token before posting", async ({
  page,
  context,
}) => {
  await mockApi(page, SUBSCRIBE, { status: 201 });
  // The page comes with its lists (ADR 010), and list answers set no cookie:
  // once it is open, nothing brings the cookie back but the token request.
  await open(page, "/weare");
  await context.clearCookies();
  const tokenRequest = page.waitForRequest(/\/api\/v1\/xsrf/);
  const subscribeRequest = page.waitForRequest(SUBSCRIBE);
  await subscribeWith(page, "cdn@example.com");
  await tokenRequest;
  const sent = await subscribeRequest;
  const cookie = (await context.cookies()).find((c) => c.name === "XSRF-TOKEN");
  expect(cookie?.value).toMatch(TOKEN_PATTERN);
  expect(sent.headers()["x-xsrf-token"]).toBe(cookie?.value);
  await expect(alertDialog(page)).toContainText(DIALOG.subscribed);
});

test("an address the browser accepts but the shared rule refuses is marked, and nothing is sent", async ({
  page,
}) => {
  const requests = await mockApi(page, SUBSCRIBE, { status: 201 });
  await open(page, "/");
  for (const address of ["jane@acme", "a@b"]) {
    await subscribeWith(page, address);
    await expect(emailInput(page)).toHaveAttribute("aria-invalid", "true");
    await expect(emailInput(page)).toHaveAccessibleDescription(
      `Email address ${FIELD_REASONS.email}.`,
    );
    await expect(emailInput(page)).toBeFocused();
  }
  await expect(alertDialog(page)).toBeHidden();
  expect(requests).toHaveLength(0);
  await subscribeWith(page, "jane@acme.com");
  await expect(alertDialog(page)).toContainText(DIALOG.subscribed);
  await expect(emailInput(page)).not.toHaveAttribute("aria-invalid");
  expect(requests).toHaveLength(1);
});

test("a 400 naming the address shows its reason under the field and the failure dialog", async ({
  page,
  expectedErrors,
}) => {
  expectedErrors.add(loadFailure(400), { url: SUBSCRIBE });
  await mockApi(page, SUBSCRIBE, {
    status: 400,
    body: {
      message: "Invalid request: emailId is not a valid e-mail address.",
      fields: { emailId: FIELD_REASONS.email },
    },
  });
  await open(page, "/");
  await subscribeWith(page, "someone@example.com");
  const dialog = alertDialog(page);
  await expect(dialog.getByRole("heading")).toHaveText(DIALOG.failureTitle);
  await expect(dialog.getByText(DIALOG.somethingWrong, { exact: true })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(emailInput(page)).toHaveAttribute("aria-invalid", "true");
  await expect(emailInput(page)).toHaveAccessibleDescription(
    `Email address ${FIELD_REASONS.email}.`,
  );
  await expect(emailInput(page)).toBeFocused();
  await expect(emailInput(page)).toHaveValue("someone@example.com");
});
