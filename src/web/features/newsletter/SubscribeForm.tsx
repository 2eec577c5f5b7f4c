/**
 * The Insight subscribe form (§4, §8): idle, submitting (spinner, cannot be
 * pressed twice), then Subscribe again; the outcome is shown in a dialog.
 */
import { type FormEvent, useRef, useState } from "react";
import { DIALOG } from "../../../shared/constants.ts";
import { EMAIL_MAX_LENGTH } from "../../../shared/subscription.ts";
import { subscribe } from "../../api/client.ts";
import { SubmitButton } from "../../components/SubmitButton.tsx";
import { useAlert } from "../alerts/AlertProvider.tsx";

async function outcomeOf(email: string) {
  try {
    const response = await subscribe(email);
    if (response.status === 201) return { title: DIALOG.successTitle, text: DIALOG.subscribed };
    if (response.status === 409 && response.data?.message) {
      return { title: DIALOG.failureTitle, text: response.data.message };
    }
  } catch {
    // A network failure is reported like any other failure below.
  }
  return { title: DIALOG.failureTitle, text: DIALOG.somethingWrong };
}

export function SubscribeForm() {
  const [submitting, setSubmitting] = useState(false);
  const showAlert = useAlert();
  const button = useRef<HTMLButtonElement>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const form = event.currentTarget;
    const email = String(new FormData(form).get("emailId") ?? "");
    setSubmitting(true);
    const outcome = await outcomeOf(email);
    setSubmitting(false);
    if (outcome.text === DIALOG.subscribed) form.reset();
    showAlert({ ...outcome, returnFocusTo: button.current });
  }

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
