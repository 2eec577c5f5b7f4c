/**
 * The Insight subscribe form (§4, §8): idle, submitting (spinner, cannot be
 * pressed twice), then Subscribe again; the outcome is shown in a dialog.
 */
import { DIALOG } from "../../../shared/constants.ts";
import { EMAIL_MAX_LENGTH } from "../../../shared/subscription.ts";
import { subscribe } from "../../api/client.ts";
import { SubmitButton } from "../../components/SubmitButton.tsx";
import { type SubmissionOutcome, useFormSubmission } from "../../hooks/useFormSubmission.ts";

async function subscribeWith(form: HTMLFormElement): Promise<SubmissionOutcome> {
  try {
    const response = await subscribe(String(new FormData(form).get("emailId") ?? ""));
    if (response.status === 201) {
      return { ok: true, title: DIALOG.successTitle, text: DIALOG.subscribed };
    }
    if (response.status === 409 && response.data?.message) {
      return { ok: false, title: DIALOG.failureTitle, text: response.data.message };
    }
  } catch {
    // A network failure is reported like any other failure below.
  }
  return { ok: false, title: DIALOG.failureTitle, text: DIALOG.somethingWrong };
}

export function SubscribeForm() {
  const { submitting, button, onSubmit } = useFormSubmission(subscribeWith);

  return (
    <form className="subscribe" onSubmit={onSubmit} aria-label="Subscribe to Insight">
      <label className="visually-hidden" htmlFor="subscribe-email">
        Email address
      </label>
      <input
        id="subscribe-email"
        name="emailId"
        type="email"
        required
        maxLength={EMAIL_MAX_LENGTH}
        autoComplete="email"
        placeholder="Your email address"
        className="subscribe__input"
      />
      <SubmitButton
        ref={button}
        busy={submitting}
        busyLabel="Subscribing"
        className="subscribe__button"
      >
        Subscribe
      </SubmitButton>
    </form>
  );
}
