import type { InquiryDetail } from "../../../shared/admin/inquiries.ts";

/** What each form that handles an inquiry gets: the inquiry, and where its saved state goes. */
export interface HandlingFormProps {
  inquiry: InquiryDetail;
  onSaved(inquiry: InquiryDetail): void;
}
