import type { Inquiry } from "../../src/shared/schemas.ts";

/** An inquiry's fields as the contact form sends them, without the lead source added later. */
export const VALID_INQUIRY: Omit<Inquiry, "source"> = {
  firstName: "Grace",
  lastName: "Hopper",
  company: "Harvard Computation Lab",
  jobTitle: "Rear Admiral",
  email: "grace@example.com",
  phoneNumber: "+1 555 0100",
  inquiryType: "Machine Learning",
  comments: "We would like to forecast our receivables.",
};
