/**
 * The inquiry form posted without JavaScript: /contact-us's action reads the
 * form and writes through the server's forms service (shared/page-context.ts),
 * which checks it with the API's schema (the shared field rules) and stores
 * the inquiry with its mail as the API does. What it
 * returns is what the page then shows (InquiryForm's `served`).
 */
import type { FieldReasons } from "../../../shared/field-rules.ts";
import { type InquiryValues, inquiryValuesFrom } from "../../../shared/inquiry.ts";
import type { LeadSource } from "../../../shared/lead-source.ts";
import type { FormService } from "../../../shared/page-context.ts";

/**
 * The outcome of a post, and the values to show again when it was not sent,
 * with the lead source the server took for it, for the form to carry.
 */
export type InquiryPostResult =
  | { state: "sent" }
  | ({ source?: LeadSource | undefined } & (
      | { state: "invalid"; values: InquiryValues; fields: FieldReasons }
      | { state: "refused"; values: InquiryValues; message: string }
      | { state: "failed"; values: InquiryValues }
    ));

export async function answerInquiryPost(
  request: Request,
  forms: FormService | undefined,
): Promise<{ result: InquiryPostResult; status: number }> {
  const values = inquiryValuesFrom(await request.formData());
  if (!forms) return { result: { state: "failed", values }, status: 503 };
  const { source } = forms;
  if (forms.refusal) {
    return { result: { state: "refused", values, message: forms.refusal, source }, status: 403 };
  }
  try {
    const written = await forms.sendInquiry(values);
    if (written.outcome === "invalid") {
      return { result: { state: "invalid", values, fields: written.fields, source }, status: 400 };
    }
    return { result: { state: "sent" }, status: 200 };
  } catch {
    // The server has logged the failure.
    return { result: { state: "failed", values, source }, status: 500 };
  }
}
