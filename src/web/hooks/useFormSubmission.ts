/**
 * The life of a form that sends one request (§4): while it is in flight the
 * form cannot be sent again; then a success clears the form, and either way
 * the outcome is shown in a dialog that hands focus back to the submit button.
 */
import { type FormEvent, useRef, useState } from "react";
import { useAlert } from "./useAlert.ts";

export interface SubmissionOutcome {
  ok: boolean;
  title: string;
  text: string;
}

export function useFormSubmission(send: (form: HTMLFormElement) => Promise<SubmissionOutcome>) {
  const [submitting, setSubmitting] = useState(false);
  const showAlert = useAlert();
  const button = useRef<HTMLButtonElement>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const form = event.currentTarget;
    setSubmitting(true);
    const outcome = await send(form);
    setSubmitting(false);
    if (outcome.ok) form.reset();
    showAlert({ title: outcome.title, text: outcome.text, returnFocusTo: button.current });
  }

  return { submitting, button, onSubmit };
}
