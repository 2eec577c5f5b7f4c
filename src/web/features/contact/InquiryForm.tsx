/**
 * The inquiry form: browser validation from the shared field
 * rules, then the rules' own check before sending (a value the browser
 * accepts and the server would refuse is marked next to its field, and
 * nothing is sent); while sending, the button is disabled with a spinner;
 * success clears the form, failure keeps every value, shows the server's
 * reason next to each field it refused, and enables the button again.
 *
 * Without JavaScript the form posts to /contact-us (method="post", with the
 * server's token in a hidden field) and the page comes back with the outcome
 * at the top of the form (`served`, from the route's action).
 */
import { useState } from "react";
import { DIALOG, FORM_TEXTS } from "../../../shared/constants.ts";
import type { FieldReasons } from "../../../shared/field-rules.ts";
import {
  checkInquiry,
  INQUIRY_FIELDS,
  INQUIRY_TYPE_PLACEHOLDER,
  type InquiryField,
  type InquiryValues,
  inquiryTypesOf,
  inquiryValuesFrom,
} from "../../../shared/inquiry.ts";
import { type CaptchaWidget, FORM_TOKEN_FIELD } from "../../../shared/page-context.ts";
import { PRIVACY_LINES, ROUTES } from "../../../shared/routes.ts";
import { fieldReasonsOf, sendComment } from "../../api/client.ts";
import { FieldError, invalidProps } from "../../components/FieldError.tsx";
import { FormDefences } from "../../components/FormDefences.tsx";
import { FormStatus, type FormStatusProps } from "../../components/FormStatus.tsx";
import { PrivacyNote } from "../../components/PrivacyNote.tsx";
import { SourceField } from "../../components/SourceField.tsx";
import { SubmitButton } from "../../components/SubmitButton.tsx";
import { formDefenceOf, resetCaptcha, useCaptcha } from "../../hooks/use-form-defence.ts";
import {
  type SubmissionOutcome,
  useFormSubmission,
  useFormToken,
} from "../../hooks/use-form-submission.ts";
import { useSiteEntries } from "../../hooks/use-site-entries.ts";
import type { InquiryPostResult } from "./inquiry-post.ts";

const FORM_ID = "inquiry-form";

const AUTOCOMPLETE: Partial<Record<InquiryField, string>> = {
  firstName: "given-name",
  lastName: "family-name",
  company: "organization",
  jobTitle: "organization-title",
  email: "email",
  phoneNumber: "tel",
};

const readValues = (form: HTMLFormElement): InquiryValues => inquiryValuesFrom(new FormData(form));

async function sendInquiry(
  form: HTMLFormElement,
  captcha: CaptchaWidget | null,
): Promise<SubmissionOutcome> {
  try {
    const response = await sendComment(readValues(form), formDefenceOf(form, captcha));
    resetCaptcha();
    console.info("send-comment answered", response.status, response.data);
    if (response.status === 200) {
      return { ok: true, title: DIALOG.successTitle, text: DIALOG.inquiryReceived };
    }
    return {
      ok: false,
      title: DIALOG.failureTitle,
      text: DIALOG.inquiryFailed,
      fields: fieldReasonsOf(response),
    };
  } catch (error) {
    console.info("send-comment failed", error);
  }
  return { ok: false, title: DIALOG.failureTitle, text: DIALOG.inquiryFailed };
}

/** What the page shows at the top of the form after a post without JavaScript. */
function statusOf(served: InquiryPostResult): FormStatusProps {
  if (served.state === "sent") {
    return { ok: true, title: DIALOG.successTitle, text: DIALOG.inquiryReceived };
  }
  const detail =
    served.state === "invalid"
      ? FORM_TEXTS.checkFields
      : served.state === "refused"
        ? served.message
        : undefined;
  return { ok: false, title: DIALOG.failureTitle, text: DIALOG.inquiryFailed, detail };
}

const controlId = (field: InquiryField) => `inquiry-${field}`;

function Label({ field }: { field: InquiryField }) {
  const rule = INQUIRY_FIELDS[field];
  return (
    <label htmlFor={controlId(field)} className="field__label">
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

interface FieldProps {
  field: InquiryField;
  /** The value the page was rendered with (a post the server did not accept), else "". */
  value: string;
  reason: string | undefined;
}

function Reason({ field, reason }: Omit<FieldProps, "value">) {
  return (
    <FieldError controlId={controlId(field)} label={INQUIRY_FIELDS[field].label} reason={reason} />
  );
}

function TextField({ field, value, reason }: FieldProps) {
  const rule = INQUIRY_FIELDS[field];
  return (
    <div className="field">
      <Label field={field} />
      <input
        id={controlId(field)}
        name={field}
        type={rule.kind === "email" ? "email" : "text"}
        required={rule.required}
        maxLength={rule.maxLength}
        autoComplete={AUTOCOMPLETE[field]}
        defaultValue={value}
        className="field__control"
        {...invalidProps(controlId(field), reason)}
      />
      <Reason field={field} reason={reason} />
    </div>
  );
}

export function InquiryForm({ posted }: { posted?: InquiryPostResult | undefined }) {
  // A page rendered for a post hydrates with its outcome and values; once the
  // visitor sends the form again (with JavaScript), they are gone, so that a
  // success clears the form.
  const [served, setServed] = useState(posted);
  const values = served && served.state !== "sent" ? served.values : undefined;
  const servedErrors: FieldReasons | undefined =
    served?.state === "invalid" ? served.fields : undefined;
  const captcha = useCaptcha();
  // One type per capability the site shows now, then "Something Else": what the server accepts.
  const { capabilities } = useSiteEntries();
  const types = inquiryTypesOf(capabilities.map(({ name }) => name));
  const send = (form: HTMLFormElement) => sendInquiry(form, captcha);
  const { submitting, button, onSubmit, onInput, errors } = useFormSubmission(send, {
    check: (form) => checkInquiry(readValues(form), types),
    initialErrors: servedErrors,
  });
  const token = useFormToken();
  const fieldProps = (field: InquiryField) => ({
    field,
    value: values?.[field] ?? "",
    reason: errors[field],
  });

  return (
    <form
      id={FORM_ID}
      className="inquiry-form"
      method="post"
      action={`${ROUTES.contactUs}#${FORM_ID}`}
      onSubmit={(event) => {
        setServed(undefined);
        void onSubmit(event);
      }}
      onInput={onInput}
      aria-labelledby="contact-title"
    >
      {served ? <FormStatus {...statusOf(served)} /> : null}
      <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />
      <SourceField served={served} />
      <p className="inquiry-form__note">
        Fields marked <span aria-hidden="true">*</span>
        <span className="visually-hidden">with an asterisk</span> are required.
      </p>
      <div className="inquiry-form__grid">
        <TextField {...fieldProps("firstName")} />
        <TextField {...fieldProps("lastName")} />
        <TextField {...fieldProps("company")} />
        <TextField {...fieldProps("jobTitle")} />
        <TextField {...fieldProps("email")} />
        <TextField {...fieldProps("phoneNumber")} />
        <div className="field field--wide">
          <Label field="inquiryType" />
          <select
            id={controlId("inquiryType")}
            name="inquiryType"
            required
            defaultValue={values?.inquiryType ?? ""}
            className="field__control"
            {...invalidProps(controlId("inquiryType"), errors.inquiryType)}
          >
            <option value="" disabled>
              {INQUIRY_TYPE_PLACEHOLDER}
            </option>
            {types.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
          <Reason field="inquiryType" reason={errors.inquiryType} />
        </div>
        <div className="field field--wide">
          <Label field="comments" />
          <textarea
            id={controlId("comments")}
            name="comments"
            required
            maxLength={INQUIRY_FIELDS.comments.maxLength}
            rows={6}
            defaultValue={values?.comments ?? ""}
            className="field__control"
            {...invalidProps(controlId("comments"), errors.comments)}
          />
          <Reason field="comments" reason={errors.comments} />
        </div>
      </div>
      <FormDefences idPrefix={FORM_ID} errors={errors} />
      <SubmitButton
        ref={button}
        busy={submitting}
        busyLabel="Sending your inquiry"
        className="inquiry-form__submit"
      >
        Submit
      </SubmitButton>
      <PrivacyNote>{PRIVACY_LINES.inquiry}</PrivacyNote>
    </form>
  );
}
