/**
 * Both forms without JavaScript: the browser posts them to the server (with
 * the server's token in a hidden field, ADR 004) and gets a page with the
 * dialogs' texts at the top of the form; a refused value is marked next to
 * its field and nothing typed is lost.
 */

import { DIALOG } from "../src/shared/constants.ts";
import { FIELD_REASONS } from "../src/shared/field-rules.ts";
import { INQUIRY_FIELDS, type InquiryField } from "../src/shared/inquiry.ts";
import { fillInquiry, inquiryField, inquiryForm, SAMPLE_INQUIRY } from "./support/inquiry.ts";
import { mailboxTexts } from "./support/mailbox.ts";
import { expect, loadFailure, type Page, test } from "./support/test.ts";

test.use({ javaScriptEnabled: false });

const field = inquiryField;
const status = (page: Page) => inquiryForm(page).locator(".form-status");

const TYPED = SAMPLE_INQUIRY;

test("the inquiry form posts without JavaScript: thank you, an empty form, and the inquiry is stored", async ({
  page,
}) => {
  await page.goto("/contact-us");
  const marker = `Sent without script ${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  await fillInquiry(page, { ...TYPED, comments: marker });
  const answered = page.waitForResponse(
    (response) => response.url().endsWith("/contact-us") && response.request().method() === "POST",
  );
  await inquiryForm(page).getByRole("button", { name: "Submit" }).click();
  expect((await answered).status()).toBe(200);

  await expect(status(page)).toHaveAttribute("role", "status");
  await expect(status(page)).toContainText(DIALOG.successTitle);
  await expect(status(page)).toContainText(DIALOG.inquiryReceived);
  for (const name of Object.keys(INQUIRY_FIELDS) as InquiryField[]) {
    await expect(field(page, name), name).toHaveValue("");
  }
  // Stored with its notification: the server writes the e-mail once the row is committed.
  await expect
    .poll(async () => (await mailboxTexts()).some((text) => text.includes(marker)), {
      timeout: 15_000,
    })
    .toBe(true);
});

test("an address the browser accepts but the server refuses comes back marked, every value kept", async ({
  page,
  expectedErrors,
}) => {
  // Chromium reports the page's 400 status as a failed load.
  expectedErrors.add(loadFailure(400), { url: /\/contact-us/ });
  await page.goto("/contact-us");
  const typed = { ...TYPED, email: "jane@acme" };
  await fillInquiry(page, typed);
  const answered = page.waitForResponse((response) => response.request().method() === "POST");
  await inquiryForm(page).getByRole("button", { name: "Submit" }).click();
  expect((await answered).status()).toBe(400);

  await expect(status(page)).toHaveAttribute("role", "alert");
  await expect(status(page)).toContainText(DIALOG.inquiryFailed);
  const email = field(page, "email");
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(email).toHaveAccessibleDescription(
    `${INQUIRY_FIELDS.email.label} ${FIELD_REASONS.email}.`,
  );
  for (const [name, value] of Object.entries(typed) as [InquiryField, string][]) {
    await expect(field(page, name), name).toHaveValue(value);
  }
  await expect(field(page, "firstName")).not.toHaveAttribute("aria-invalid");
});

test("subscribing from the footer without JavaScript: subscribed, then the server's 409 message", async ({
  page,
  expectedErrors,
}) => {
  expectedErrors.add(loadFailure(409), { url: /\/subscribe$/ });
  const address = `no-script-${Date.now()}@example.com`;
  await page.goto("/weare");
  const footer = page.getByRole("contentinfo");
  await footer.getByRole("textbox", { name: "Email address" }).fill(address);
  await footer.getByRole("button", { name: "Subscribe" }).click();
  await expect(page).toHaveURL(/\/subscribe$/);

  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Subscribe to Insight");
  const outcome = main.getByRole("status");
  await expect(outcome).toContainText(DIALOG.successTitle);
  await expect(outcome).toContainText(DIALOG.subscribed);
  const input = main.getByRole("textbox", { name: "Email address" });
  await expect(input).toHaveValue("");

  // Again, from the footer, in capitals: the same address.
  await footer.getByRole("textbox", { name: "Email address" }).fill(address.toUpperCase());
  await footer.getByRole("button", { name: "Subscribe" }).click();
  const refused = page.getByRole("main").getByRole("alert");
  await expect(refused).toContainText(DIALOG.failureTitle);
  await expect(refused).toContainText("already subscribed");
  await expect(page.getByRole("main").getByRole("textbox", { name: "Email address" })).toHaveValue(
    address.toUpperCase(),
  );
});
