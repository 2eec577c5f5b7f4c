import { FORM_TRAP_FIELD } from "../src/shared/bot-defence.ts";
import { CAPABILITIES } from "../src/shared/capabilities.ts";
import { DIALOG } from "../src/shared/constants.ts";
import { FIELD_REASONS } from "../src/shared/field-rules.ts";
import {
  INQUIRY_FIELDS,
  INQUIRY_TYPE_PLACEHOLDER,
  type InquiryField,
  inquiryTypesOf,
} from "../src/shared/inquiry.ts";
import { SITE } from "../src/shared/site.ts";
import { holdApi, mockApi } from "./support/api.ts";
import { fillInquiry, inquiryField, inquiryForm, SAMPLE_INQUIRY } from "./support/inquiry.ts";
import { alertDialog, open } from "./support/page.ts";
import { expect, loadFailure, type Page, test } from "./support/test.ts";

const SEND = /\/api\/v1\/send-comment/;
const form = inquiryForm;
const field = inquiryField;
const submit = (page: Page) => form(page).locator("button[type=submit]");

const fillForm = (page: Page) => fillInquiry(page);

/** What the visitor typed: every field but the hidden token. */
async function values(page: Page) {
  return (
    form(page)
      // The honeypot is no field a person fills in (ADR 017).
      .locator(`input:not([type=hidden]):not([name=${FORM_TRAP_FIELD}]), select, textarea`)
      .evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value))
  );
}

test("the page has the heading, the invitation and every field of the form", async ({ page }) => {
  await open(page, "/contact-us");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Learn More");
  await expect(page.getByText(SITE.contactInvitation)).toBeVisible();
  for (const [name, rule] of Object.entries(INQUIRY_FIELDS)) {
    const control = field(page, name as keyof typeof INQUIRY_FIELDS);
    await expect(control).toBeVisible();
    if (rule.required) await expect(control).toHaveAttribute("required", "");
    else await expect(control).not.toHaveAttribute("required");
  }
  await expect(field(page, "email")).toHaveAttribute("type", "email");
  await expect(field(page, "phoneNumber")).toHaveAttribute("type", "text");
  await expect(field(page, "phoneNumber")).not.toHaveAttribute("pattern");
  const select = field(page, "inquiryType");
  await expect(select).toHaveValue("");
  const options = select.locator("option");
  // The nine types, one per seeded capability and "Other", after the placeholder.
  await expect(options).toHaveText([INQUIRY_TYPE_PLACEHOLDER, ...inquiryTypesOf(CAPABILITIES)]);
  await expect(options.first()).toHaveAttribute("disabled", "");
  expect(await select.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.text)).toBe(
    INQUIRY_TYPE_PLACEHOLDER,
  );
});

test("a required field left empty stops the browser from sending", async ({ page }) => {
  let requests = 0;
  await page.route(SEND, (route) => {
    requests += 1;
    return route.abort();
  });
  await open(page, "/contact-us");
  await fillForm(page);
  await field(page, "comments").fill("");
  await submit(page).click();
  expect(
    await field(page, "comments").evaluate((el: HTMLTextAreaElement) => el.validity.valueMissing),
  ).toBe(true);
  expect(requests).toBe(0);
});

test("sending to the real API clears every value and says thank you", async ({ page }) => {
  await open(page, "/contact-us");
  await fillForm(page);
  const sent = page.waitForRequest(SEND);
  await submit(page).click();
  const body = (await sent).postDataJSON();
  // The form's fields, and the visit's source (e2e/lead-source.spec.ts): it began here.
  expect(body).toEqual({ ...SAMPLE_INQUIRY, source: { entryPage: "/contact-us" } });
  const dialog = alertDialog(page);
  await expect(dialog.getByRole("heading")).toHaveText(DIALOG.successTitle);
  await expect(dialog.getByText(DIALOG.inquiryReceived, { exact: true })).toBeVisible();
  expect(await values(page)).toEqual(["", "", "", "", "", "", "", ""]);
  await dialog.getByRole("button", { name: DIALOG.confirm }).click();
  await expect(submit(page)).toBeFocused();
});

for (const [name, how, logged] of [
  ["a 500 answer", { status: 500, body: { message: "x" } }, loadFailure(500)],
  ["a 201 answer (only 200 is success)", { status: 201, body: { id: 1 } }, undefined],
  ["a network failure", { fail: true as const }, loadFailure("failed")],
] as const) {
  test(`${name} shows the failure dialog and keeps every value`, async ({
    page,
    expectedErrors,
  }) => {
    if (logged) expectedErrors.add(logged, { url: SEND });
    await mockApi(page, SEND, how);
    await open(page, "/contact-us");
    await fillForm(page);
    const before = await values(page);
    await submit(page).click();
    await expect(alertDialog(page).getByText(DIALOG.inquiryFailed, { exact: true })).toBeVisible();
    await page.keyboard.press("Escape");
    expect(await values(page)).toEqual(before);
    await expect(submit(page)).toBeEnabled();
  });
}

test("while sending, the button is disabled with a spinner", async ({ page }) => {
  const held = await holdApi(page, SEND, { status: 200, body: { id: 7 } });
  await open(page, "/contact-us");
  await fillForm(page);
  await submit(page).click();
  await expect.poll(() => held.requests.length).toBe(1);
  await expect(submit(page)).toBeDisabled();
  await expect(submit(page).getByRole("status")).toBeAttached();
  held.release();
  await expect(alertDialog(page)).toContainText(DIALOG.inquiryReceived);
  await expect(submit(page)).toHaveText("Submit");
  await expect(submit(page)).toBeEnabled();
});

test("keyboard only: fill in every field, send, close the dialog", async ({ page }) => {
  await mockApi(page, SEND, { status: 200, body: { id: 9 } });
  await open(page, "/contact-us");
  await field(page, "firstName").focus();
  for (const text of [
    "Ada",
    "Lovelace",
    "Engines",
    "Director",
    "ada@example.com",
    "020 7946 0000",
  ]) {
    await page.keyboard.type(text);
    await page.keyboard.press("Tab");
  }
  await expect(field(page, "inquiryType")).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Hello from the keyboard.");
  await page.keyboard.press("Tab");
  await expect(submit(page)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(alertDialog(page)).toContainText(DIALOG.inquiryReceived);
  await page.keyboard.press("Enter");
  await expect(alertDialog(page)).toBeHidden();
  await expect(submit(page)).toBeFocused();
});

/** A field's reason under it, as the control points to it (aria-describedby). */
async function expectRefused(page: Page, name: InquiryField, reason: string) {
  const control = field(page, name);
  await expect(control).toHaveAttribute("aria-invalid", "true");
  await expect(control).toHaveAccessibleDescription(`${INQUIRY_FIELDS[name].label} ${reason}.`);
}

test("values the browser accepts but the shared rules refuse are marked, and nothing is sent", async ({
  page,
}) => {
  const requests = await mockApi(page, SEND, { status: 200, body: { id: 1 } });
  await open(page, "/contact-us");
  await fillForm(page);
  await field(page, "firstName").fill("   ");
  await field(page, "email").fill("jane@acme");
  await submit(page).click();
  await expectRefused(page, "firstName", FIELD_REASONS.required);
  await expectRefused(page, "email", FIELD_REASONS.email);
  await expect(field(page, "firstName")).toBeFocused();
  await expect(field(page, "lastName")).not.toHaveAttribute("aria-invalid");
  await expect(alertDialog(page)).toBeHidden();

  await field(page, "email").fill("a@b");
  // Changing a value takes its mark away until the form is sent again.
  await expect(field(page, "email")).not.toHaveAttribute("aria-invalid");
  await submit(page).click();
  await expectRefused(page, "email", FIELD_REASONS.email);
  await field(page, "email").fill("jane@acme.com");
  await submit(page).click();
  await expectRefused(page, "firstName", FIELD_REASONS.required);
  await expect(field(page, "email")).not.toHaveAttribute("aria-invalid");
  expect(requests).toHaveLength(0);

  await field(page, "firstName").fill("Ada");
  await submit(page).click();
  await expect(alertDialog(page)).toContainText(DIALOG.inquiryReceived);
  expect(requests).toHaveLength(1);
});

test("a 400 naming fields shows each reason next to its field and the failure dialog", async ({
  page,
  expectedErrors,
}) => {
  expectedErrors.add(loadFailure(400), { url: SEND });
  const reasons = { email: FIELD_REASONS.email, phoneNumber: FIELD_REASONS.tooLong(40) };
  await mockApi(page, SEND, {
    status: 400,
    body: { message: "Invalid request: email is not a valid e-mail address.", fields: reasons },
  });
  await open(page, "/contact-us");
  await fillForm(page);
  const before = await values(page);
  await submit(page).click();
  const dialog = alertDialog(page);
  await expect(dialog.getByRole("heading")).toHaveText(DIALOG.failureTitle);
  await expect(dialog.getByText(DIALOG.inquiryFailed, { exact: true })).toBeVisible();
  await dialog.getByRole("button", { name: DIALOG.confirm }).click();
  await expectRefused(page, "email", reasons.email);
  await expectRefused(page, "phoneNumber", reasons.phoneNumber);
  await expect(field(page, "email")).toBeFocused();
  expect(await values(page)).toEqual(before);
  await expect(submit(page)).toBeEnabled();
});
