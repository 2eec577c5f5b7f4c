/**
 * A reader whose browser fills the footer's subscribe form and who presses
 * Enter at once (Playwright's fill sets the value without key events, as
 * autofill does), on a server that subscribes without double opt-in and
 * keeps a minimum time-to-submit. The post comes too soon after the
 * page to be surely a person's, so instead of being turned away it waits for
 * the address to confirm (ADR 036): the reader is told to check their inbox
 * (ADR 079), gets the confirmation link, and following it subscribes them and
 * brings the welcome, with no editor involved.
 */
import { DIALOG } from "../src/shared/constants.ts";
import { confirmLinkIn } from "./support/confirm-link.ts";
import { type OwnServer, startOwnServer } from "./support/own-server.ts";
import { alertDialog, open } from "./support/page.ts";
import { expect, test } from "./support/test.ts";

let own: OwnServer;

test.beforeAll(async () => {
  // Ten times the default (3 s; the shared test server sets 0), so that the
  // post is too fast however slowly a loaded machine shows the page.
  own = await startOwnServer("autofill", { FORM_MIN_SECONDS: "30" });
});

test.afterAll(() => own.close());

test("a reader who autofills the footer form and presses Enter at once gets in by the e-mail's link", async ({
  page,
}) => {
  const address = "ines.autofill@reader.example";
  await open(page, `${own.origin}/`);
  const email = page.getByRole("contentinfo").getByRole("textbox", { name: "Email address" });
  await email.fill(address);
  await email.press("Enter");
  await expect(alertDialog(page)).toContainText(DIALOG.checkInbox);

  // Without double opt-in only a post taken for too fast is asked to confirm.
  const [confirmation] = await own.smtp.waitForMailTo(address);
  expect(confirmation?.parsed.subject).toBe("Please confirm your subscription to Insight");
  await open(page, confirmLinkIn(confirmation));
  await page.getByRole("button", { name: "Confirm my subscription" }).click();
  await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveText(
    "Your subscription is confirmed",
  );
  const [, welcome] = await own.smtp.waitForMailTo(address, 2);
  expect(welcome?.parsed.subject).toContain("Welcome to Insight");
});
