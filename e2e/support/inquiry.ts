/** The contact form's fields and one complete inquiry, for the tests with and without JavaScript. */
import { INQUIRY_FIELDS, type InquiryField } from "../../src/shared/inquiry.ts";
import type { Page } from "./test.ts";

export const inquiryForm = (page: Page) => page.locator("form.inquiry-form");

/** A field by its label, as a visitor finds it. */
export const inquiryField = (page: Page, name: InquiryField) =>
  inquiryForm(page).getByLabel(new RegExp(`^${INQUIRY_FIELDS[name].label}`));

export const SAMPLE_INQUIRY: Record<InquiryField, string> = {
  firstName: "Ada",
  lastName: "Lovelace",
  company: "Analytical Engines Ltd",
  jobTitle: "Director",
  email: "ada@example.com",
  phoneNumber: "020 7946 0000",
  inquiryType: "Predictive Analytics",
  comments: "We would like to forecast demand.",
};

export async function fillInquiry(
  page: Page,
  values: Record<InquiryField, string> = SAMPLE_INQUIRY,
) {
  for (const [name, value] of Object.entries(values) as [InquiryField, string][]) {
    if (name === "inquiryType") await inquiryField(page, name).selectOption(value);
    else await inquiryField(page, name).fill(value);
  }
}
