/** The contact form's fields and one complete inquiry, for the tests with and without JavaScript. */
import type { APIRequestContext } from "@playwright/test";
import { API_PATHS } from "../../src/shared/api-paths.ts";
import { INQUIRY_FIELDS, type InquiryField } from "../../src/shared/inquiry.ts";
import type { Inquiry } from "../../src/shared/schemas.ts";
import { expect, type Page } from "./test.ts";

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

/** Sends an inquiry as the contact form does, with the word in its company and comments. */
export async function sendInquiry(
  request: APIRequestContext,
  word: string,
  fields: Partial<Inquiry> = {},
) {
  const { token } = await (await request.get(`/${API_PATHS.xsrf}`)).json();
  const response = await request.post(`/${API_PATHS.sendComment}`, {
    headers: { "x-xsrf-token": token },
    data: {
      firstName: "Ada",
      lastName: "Lovelace",
      company: `Engines ${word}`,
      jobTitle: "Director",
      email: `ada.${word}@example.com`,
      phoneNumber: "020 7946 0000",
      inquiryType: "Predictive Analytics",
      comments: `We would like to forecast demand. (${word})`,
      ...fields,
    } satisfies Inquiry,
  });
  expect(response.status()).toBe(200);
  return (await response.json()).id as number;
}
