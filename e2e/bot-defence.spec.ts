/**
 * The honeypot on both forms (ADR 017) is there for scripts only: at phone
 * width a person neither sees it nor reaches it with Tab, the page stays
 * accessible, and a person's submission goes through (the test server runs
 * with FORM_MIN_SECONDS=0; test/platform/security/bot-defence.test.ts tests the minimum).
 */

import { API_PATHS } from "../src/shared/api-paths.ts";
import { FORM_TRAP_FIELD, FORM_TRAP_HEADER } from "../src/shared/bot-defence.ts";
import { DIALOG } from "../src/shared/constants.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { consoleAccount, signInToConsole } from "./support/console.ts";
import { fillInquiry, inquiryForm } from "./support/inquiry.ts";
import { alertDialog, open } from "./support/page.ts";
import { expect, type Locator, type Page, test } from "./support/test.ts";

test.use({ viewport: { width: 375, height: 812 } });

const footerForm = (page: Page) => page.locator("form.subscribe--footer");
const trapIn = (form: Locator) => form.locator(`input[name="${FORM_TRAP_FIELD}"]`);

/** The trap sits in a box of at most a pixel that clips what it holds, hidden from assistive technology. */
async function expectUnseen(trap: Locator) {
  const wrapper = trap.locator("..");
  await expect(wrapper).toHaveAttribute("aria-hidden", "true");
  const box = await wrapper.boundingBox();
  expect(box === null || (box.width <= 1 && box.height <= 1)).toBe(true);
  expect(await wrapper.evaluate((element) => getComputedStyle(element).overflow)).toBe("hidden");
  await expect(trap).toHaveAttribute("tabindex", "-1");
  await expect(trap).toHaveAttribute("autocomplete", "off");
}

/** Tabs through the whole page and gives the name of every control that took focus. */
async function tabStops(page: Page): Promise<string[]> {
  const names: string[] = [];
  await page.locator("body").focus();
  for (let step = 0; step < 80; step += 1) {
    await page.keyboard.press("Tab");
    const name = await page.evaluate(() => {
      const active = document.activeElement as HTMLInputElement | null;
      return active && active !== document.body ? active.name || active.tagName : null;
    });
    if (name === null) break;
    names.push(name);
  }
  return names;
}

test("the honeypot of both forms is neither seen nor reached with Tab, and the page passes axe", async ({
  page,
}) => {
  await open(page, "/contact-us");
  await expectUnseen(trapIn(inquiryForm(page)));
  await expectUnseen(trapIn(footerForm(page)));
  const stops = await tabStops(page);
  // The walk reached both forms' own fields, and never the trap.
  expect(stops).toEqual(expect.arrayContaining(["firstName", "comments", "emailId"]));
  expect(stops).not.toContain(FORM_TRAP_FIELD);
  await expectNoAxeViolations(page);
});

test("a person's inquiry goes through without the trap's header", async ({ page }) => {
  await open(page, "/contact-us");
  await fillInquiry(page);
  const sent = page.waitForRequest((request) => request.url().endsWith("/api/v1/send-comment"));
  await inquiryForm(page).getByRole("button", { name: "Submit" }).click();
  expect((await sent).headers()[FORM_TRAP_HEADER.toLowerCase()]).toBeUndefined();
  await expect(alertDialog(page).getByText(DIALOG.inquiryReceived, { exact: true })).toBeVisible();
});

test("a person's subscription from the footer goes through without the trap's header", async ({
  page,
}) => {
  await open(page, "/weare");
  const form = footerForm(page);
  await form.getByLabel("Email").fill(`honeypot-person-${Date.now()}@example.com`);
  const sent = page.waitForRequest((request) => request.url().includes("/api/v1/subscribe"));
  await form.getByRole("button", { name: "Subscribe" }).click();
  expect((await sent).headers()[FORM_TRAP_HEADER.toLowerCase()]).toBeUndefined();
  await expect(alertDialog(page).getByText(DIALOG.subscribed, { exact: true })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the subscribe page's form posts with its honeypot empty and subscribes", async ({
    page,
  }) => {
    await page.goto("/subscribe");
    const form = page.locator("form.subscribe--page");
    await expectUnseen(trapIn(form));
    await form.getByLabel("Email").fill(`honeypot-nojs-${Date.now()}@example.com`);
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expect(form.locator(".form-status--ok")).toContainText(DIALOG.subscribed);
  });
});

test("the console's inbox says how many posts were turned away as automated", async ({
  page,
  request,
}) => {
  const { token } = (await (await request.get("/api/v1/xsrf")).json()) as { token: string };
  const address = `trapped-${Date.now()}@example.com`;
  const trapped = await request.post(`/api/v1/subscribe?emailId=${encodeURIComponent(address)}`, {
    headers: { "x-xsrf-token": token, [FORM_TRAP_HEADER]: "https://spam.example" },
  });
  expect(trapped.status()).toBe(201);
  const viewer = await consoleAccount("viewer", "turned-away");
  await signInToConsole(page, viewer, "/admin/inquiries");
  await expect(
    page.getByText(
      /^Turned away as automated in the last 30 days: \d+ inquir(y|ies), [1-9]\d* subscriptions?\. Review the turned-away posts$/,
    ),
  ).toBeVisible();
  // The post itself is kept, for an editor to release should a person have sent it.
  await page.getByRole("link", { name: "Review the turned-away posts" }).click();
  await expect(page.getByRole("article").filter({ hasText: address })).toContainText(
    "Filled the hidden trap field",
  );
});

test("a page that came without the token cookie takes one when its forms are shown, before anything is sent", async ({
  page,
}) => {
  // As behind a cache or CDN that drops Set-Cookie: every answer but the
  // token endpoint's is fetched outside the browser (Playwright's own fetch
  // would store the cookie) and handed over without Set-Cookie.
  await page.route(
    (url) => !url.pathname.startsWith(`/${API_PATHS.xsrf}`),
    async (route) => {
      const request = route.request();
      const response = await fetch(request.url(), {
        method: request.method(),
        headers: await request.allHeaders(),
      });
      const headers = Object.fromEntries(response.headers);
      delete headers["set-cookie"];
      await route.fulfill({
        status: response.status,
        headers,
        body: Buffer.from(await response.arrayBuffer()),
      });
    },
  );
  const tokenRequests: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes(`/${API_PATHS.xsrf}`)) tokenRequests.push(request.url());
  });
  await open(page, "/contact-us");
  await expect.poll(() => tokenRequests.length).toBeGreaterThan(0);
  await expect.poll(() => page.evaluate(() => document.cookie.includes("XSRF-TOKEN="))).toBe(true);
});
