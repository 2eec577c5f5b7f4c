/**
 * An inquiry's type against the types on offer now: the firm's visible
 * capabilities, in its order, then "Something Else" (SiteContent's
 * inquiryTypes). The API and the form posted without JavaScript both refuse
 * any other type after the fixed rules (shared/schemas.ts), in the field
 * rules' words, so the server accepts exactly what the form offers.
 */
import type { FieldReasons } from "../../../shared/field-rules.ts";
import { checkField } from "../../../shared/field-rules.ts";
import { inquiryRules } from "../../../shared/inquiry.ts";
import type { SiteContent } from "../content/index.ts";

/** The type's reason, keyed by its field, when it is not on offer now; else nothing. */
export async function inquiryTypeRefusal(
  content: Pick<SiteContent, "inquiryTypes">,
  inquiryType: string,
): Promise<FieldReasons> {
  const rule = inquiryRules(await content.inquiryTypes()).inquiryType;
  const reason = checkField(rule, inquiryType);
  return reason ? { inquiryType: reason } : {};
}
