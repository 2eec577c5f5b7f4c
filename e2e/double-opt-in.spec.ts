/**
 * Double opt-in in the browser (NEWSLETTER_DOUBLE_OPT_IN): the footer's
 * dialog tells the visitor to check their inbox (footer.spec.ts shows the
 * spec's text without double opt-in), the e-mail brings a confirmation link, its
 * page confirms only when the button is pressed, and the welcome follows;
 * the same without JavaScript, where a bad link gets its own page.
 */
import { DIALOG } from "../src/shared/constants.ts";
import type { TestSmtp } from "../test/support/smtp.ts";
import { confirmLinkIn } from "./support/confirm-link.ts";
import { type OwnServer, startOwnServer } from "./support/own-server.ts";
import { alertDialog, open, whenHydrated } from "./support/page.ts";
import { expect, loadFailure, type Page, test } from "./support/test.ts";

// This journey needs a server with double opt-in that sends real e-mail, so
// it starts its own beside an SMTP server, instead of using the shared test server.

// One server for the file: its tests run one after another in one worker.
test.describe.configure({ mode: "serial" });

let own: OwnServer;
let smtp: TestSmtp;

test.beforeAll(async () => {
  own = await startOwnServer("double-opt-in", { NEWSLETTER_DOUBLE_OPT_IN: "true" });
  smtp = own.smtp;
});

test.afterAll(() => own.close());

const heading = (page: Page) => page.getByRole("main").getByRole("heading", { level: 1 });
const confirmButton = (page: Page) => page.getByRole("button", { name: "Confirm my subscription" });

test("from the footer to a confirmed subscription and its welcome", async ({ page }) => {
  const email = "confirms@example.com";
  await open(page, `${own.origin}/`);
  await page.getByRole("contentinfo").getByRole("textbox", { name: "Email address" }).fill(email);
  await page.getByRole("contentinfo").getByRole("button", { name: "Subscribe" }).click();
  await expect(alertDialog(page)).toContainText(DIALOG.checkInbox);
  await alertDialog(page).getByRole("button", { name: DIALOG.confirm }).click();

  const [confirmation] = await smtp.waitForMailTo(email);
  expect(confirmation?.parsed.subject).toBe("Please confirm your subscription to Insight");
  await open(page, confirmLinkIn(confirmation));
  await expect(heading(page)).toHaveText("Confirm your subscription to Insight");
  await confirmButton(page).click();
  await expect(heading(page)).toHaveText("Your subscription is confirmed");
  await expect(page.getByText("co••••••@example.com")).toBeVisible();
  await whenHydrated(page);
  await expect(page.getByRole("contentinfo")).toBeVisible();

  const [, welcome] = await smtp.waitForMailTo(email, 2);
  expect(welcome?.parsed.subject).toContain("Welcome to Insight");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the link's button confirms, and a forged link is refused", async ({
    page,
    expectedErrors,
  }) => {
    expectedErrors.add(loadFailure(404), { url: /\/subscribe\/confirm\?token=/ });
    const email = "no-script-confirms@example.com";
    await page.goto(`${own.origin}/weare`);
    const footer = page.getByRole("contentinfo");
    await footer.getByRole("textbox", { name: "Email address" }).fill(email);
    await footer.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.getByRole("main").getByRole("status")).toContainText(DIALOG.checkInbox);

    const link = confirmLinkIn((await smtp.waitForMailTo(email))[0]);
    const forged = link.replace(/.$/, (last) => (last === "A" ? "B" : "A"));
    // A forged link opens on its refusal: no button offers what can only fail.
    await page.goto(forged);
    await expect(heading(page)).toHaveText("This link is not valid");
    await expect(confirmButton(page)).toHaveCount(0);

    await page.goto(link);
    await expect(heading(page)).toHaveText("Confirm your subscription to Insight");
    await confirmButton(page).click();
    await expect(heading(page)).toHaveText("Your subscription is confirmed");
    const [, welcome] = await smtp.waitForMailTo(email, 2);
    expect(welcome?.parsed.subject).toContain("Welcome to Insight");
  });
});
