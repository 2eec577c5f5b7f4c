/**
 * The life of a form that sends one request: before sending, its values
 * are checked with the shared rules (shared/field-rules.ts), and a refused
 * field stops the sending, shows its reason and takes focus; while the
 * request is in flight the form cannot be sent again; then a success clears
 * the form, the server's reasons for refused fields are shown next to them,
 * and either way the outcome is shown in a dialog that hands focus back to
 * the first refused field, or else to the submit button.
 */
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useRouteLoaderData } from "react-router";
import type { FieldReasons } from "../../shared/field-rules.ts";
import { useAlert } from "./use-alert.ts";

export interface SubmissionOutcome {
  ok: boolean;
  title: string;
  text: string;
  /** The server's reason for each field it refused. */
  fields?: FieldReasons;
}

interface Options {
  /** The shared rules' reasons for the form's values; sending stops when there is any. */
  check?: (form: HTMLFormElement) => FieldReasons;
  /** Reasons the page was rendered with (a post without JavaScript the server refused). */
  initialErrors?: FieldReasons | undefined;
}

/** The form's first control, in page order, whose field is refused. */
function firstRefused(form: HTMLFormElement, errors: FieldReasons): HTMLElement | null {
  for (const element of Array.from(form.elements)) {
    const name = (element as HTMLInputElement).name;
    if (name && errors[name]) return element as HTMLElement;
  }
  return null;
}

export function useFormSubmission(
  send: (form: HTMLFormElement) => Promise<SubmissionOutcome>,
  { check, initialErrors }: Options = {},
) {
  const [submitting, setSubmitting] = useState(false);
  const [errors, setErrors] = useState<FieldReasons>(initialErrors ?? {});
  const showAlert = useAlert();
  const button = useRef<HTMLButtonElement>(null);
  /** The form whose first refused field takes focus once its reasons are shown. */
  const focusPending = useRef<HTMLFormElement | null>(null);

  useEffect(() => {
    const form = focusPending.current;
    if (!form) return;
    focusPending.current = null;
    firstRefused(form, errors)?.focus();
  }, [errors]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const form = event.currentTarget;
    const refused = check?.(form) ?? {};
    if (Object.keys(refused).length > 0) {
      focusPending.current = form;
      setErrors(refused);
      return;
    }
    setErrors({});
    setSubmitting(true);
    const outcome = await send(form);
    setSubmitting(false);
    if (outcome.ok) form.reset();
    const fields = outcome.fields ?? {};
    setErrors(fields);
    showAlert({
      title: outcome.title,
      text: outcome.text,
      returnFocusTo: firstRefused(form, fields) ?? button.current,
    });
  }

  /** A field's reason goes as soon as the visitor changes its value. */
  function onInput(event: FormEvent<HTMLFormElement>) {
    const name = (event.target as HTMLInputElement).name;
    setErrors((current) => {
      if (!name || !(name in current)) return current;
      const { [name]: _changed, ...rest } = current;
      return rest;
    });
  }

  return { submitting, button, onSubmit, onInput, errors };
}

/**
 * The token of every form's hidden field (FORM_TOKEN_FIELD), which the server
 * puts in the root route's data (root.tsx, ADR 004); empty where no server
 * renders the pages.
 */
export function useFormToken(): string {
  const data = useRouteLoaderData("root") as { formToken?: unknown } | undefined;
  return typeof data?.formToken === "string" ? data.formToken : "";
}
