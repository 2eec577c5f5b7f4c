/**
 * The inquiry form (§3, §4, §5): browser validation from the shared field
 * rules; while sending, the button is disabled with a spinner; success clears
 * the form, failure keeps every value and enables the button again.
 */
import { DIALOG } from "../../../shared/constants.ts";
import {
  INQUIRY_FIELDS,
  INQUIRY_TYPE_PLACEHOLDER,
  INQUIRY_TYPES,
  type Inquiry,
  type InquiryField,
} from "../../../shared/inquiry.ts";
import { sendComment } from "../../api/client.ts";
import { SubmitButton } from "../../components/SubmitButton.tsx";
import { type SubmissionOutcome, useFormSubmission } from "../../hooks/useFormSubmission.ts";

const AUTOCOMPLETE: Partial<Record<InquiryField, string>> = {
  firstName: "given-name",
  lastName: "family-name",
  company: "organization",
  jobTitle: "organization-title",
  email: "email",
  phoneNumber: "tel",
};

function readInquiry(form: HTMLFormElement): Inquiry {
  const data = new FormData(form);
  const value = (field: InquiryField) => String(data.get(field) ?? "");
  return {
    firstName: value("firstName"),
    lastName: value("lastName"),
    company: value("company"),
    jobTitle: value("jobTitle"),
    email: value("email"),
    phoneNumber: value("phoneNumber"),
    inquiryType: value("inquiryType") as Inquiry["inquiryType"],
    comments: value("comments"),
  };
}

async function sendInquiry(form: HTMLFormElement): Promise<SubmissionOutcome> {
  try {
    const response = await sendComment(readInquiry(form));
    console.info("send-comment answered", response.status, response.data);
    if (response.status === 200) {
      return { ok: true, title: DIALOG.successTitle, text: DIALOG.inquiryReceived };
    }
  } catch (error) {
    console.info("send-comment failed", error);
  }
  return { ok: false, title: DIALOG.failureTitle, text: DIALOG.inquiryFailed };
}

function Label({ field }: { field: InquiryField }) {
  const rule = INQUIRY_FIELDS[field];
  return (
    <label htmlFor={`inquiry-${field}`} className="field__label">
      {rule.label}
      {rule.required ? (
        <span className="field__required" aria-hidden="true">
          {" "}
          *
        </span>
      ) : (
        <span className="field__optional"> (optional)</span>
      )}
    </label>
  );
}

function TextField({ field }: { field: InquiryField }) {
  const rule = INQUIRY_FIELDS[field];
  return (
    <div className="field">
      <Label field={field} />
      <input
        id={`inquiry-${field}`}
        name={field}
        type={rule.kind === "email" ? "email" : "text"}
        required={rule.required}
        maxLength={rule.maxLength}
        autoComplete={AUTOCOMPLETE[field]}
        className="field__control"
      />
    </div>
  );
}

export function InquiryForm() {
  const { submitting, button, onSubmit } = useFormSubmission(sendInquiry);

  return (
    <form className="inquiry-form" onSubmit={onSubmit} aria-labelledby="contact-title">
      <p className="inquiry-form__note">
        Fields marked <span aria-hidden="true">*</span>
        <span className="visually-hidden">with an asterisk</span> are required.
      </p>
      <div className="inquiry-form__grid">
        <TextField field="firstName" />
        <TextField field="lastName" />
        <TextField field="company" />
        <TextField field="jobTitle" />
        <TextField field="email" />
        <TextField field="phoneNumber" />
        <div className="field field--wide">
          <Label field="inquiryType" />
          <select
            id="inquiry-inquiryType"
            name="inquiryType"
            required
            defaultValue=""
            className="field__control"
          >
            <option value="" disabled>
              {INQUIRY_TYPE_PLACEHOLDER}
            </option>
            {INQUIRY_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </div>
        <div className="field field--wide">
          <Label field="comments" />
          <textarea
            id="inquiry-comments"
            name="comments"
            required
            maxLength={INQUIRY_FIELDS.comments.maxLength}
            rows={6}
            className="field__control"
          />
        </div>
      </div>
      <SubmitButton
        ref={button}
        busy={submitting}
        busyLabel="Sending your inquiry"
        className="inquiry-form__submit"
      >
        Submit
      </SubmitButton>
    </form>
  );
}
