/**
 * Adding or changing a webhook: its name, the address, the events it hears,
 * the body it is sent and whether it is on. The server checks the address
 * (https in production; no private network unless the server allows it)
 * and names the field it refuses.
 */
import { type FormEvent, useId, useState } from "react";
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  WEBHOOK_FORMAT_LABELS,
  WEBHOOK_FORMATS,
  type WebhookEventType,
  type WebhookFormat,
  type WebhookView,
} from "../../../shared/admin/webhooks.ts";
import { ApiError } from "../../api/client.ts";
import { failureText } from "../../api/refusal.ts";
import { Field } from "../../components/Field.tsx";
import { Notice } from "../../components/Notice.tsx";

export interface WebhookValues {
  name: string;
  url: string;
  events: WebhookEventType[];
  format: WebhookFormat;
  enabled: boolean;
}

const FORMAT_HINTS: Record<WebhookFormat, string> = {
  slack: 'A sentence in {"text": …}, which Slack, Mattermost and Teams post as a message.',
  json: 'The event as {"type", "timestamp", "data"}, for a CRM or your own script.',
};

const EMPTY: WebhookValues = {
  name: "",
  url: "",
  events: ["inquiry.received"],
  format: "slack",
  enabled: true,
};

interface WebhookFormProps {
  initial?: WebhookView;
  httpsOnly: boolean;
  submitLabel: string;
  onSubmit(values: WebhookValues): Promise<void>;
  onCancel?: () => void;
}

export function WebhookForm({
  initial,
  httpsOnly,
  submitLabel,
  onSubmit,
  onCancel,
}: WebhookFormProps) {
  const eventsId = useId();
  const formatId = useId();
  const [values, setValues] = useState<WebhookValues>(
    initial
      ? {
          name: initial.name,
          url: initial.url,
          events: initial.events,
          format: initial.format,
          enabled: initial.enabled,
        }
      : EMPTY,
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const set = <K extends keyof WebhookValues>(key: K, value: WebhookValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));

  function toggleEvent(event: WebhookEventType, on: boolean) {
    set("events", on ? [...values.events, event] : values.events.filter((each) => each !== event));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setFailure(null);
    try {
      await onSubmit(values);
      if (!initial) setValues(EMPTY);
    } catch (error) {
      const fields = error instanceof ApiError ? error.fields : {};
      setErrors(fields);
      if (Object.keys(fields).length === 0) setFailure(failureText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="webhook-form" onSubmit={submit} noValidate>
      <Field
        label="Name"
        hint="The tool it tells, as you will look for it in the log."
        autoComplete="off"
        value={values.name}
        error={errors.name}
        onChange={(event) => set("name", event.target.value)}
      />
      <Field
        label="Address"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        hint={
          httpsOnly
            ? "The tool's incoming-webhook address, starting with https://."
            : "The tool's incoming-webhook address, starting with https:// (or http:// here)."
        }
        value={values.url}
        error={errors.url}
        onChange={(event) => set("url", event.target.value)}
      />
      <fieldset className="webhook-form__choices" aria-describedby={`${eventsId}-hint`}>
        <legend>Events</legend>
        <p className="field-hint" id={`${eventsId}-hint`}>
          Each one is sent as it happens.
        </p>
        {WEBHOOK_EVENTS.map((each) => (
          <label key={each} className="webhook-form__choice">
            <input
              type="checkbox"
              checked={values.events.includes(each)}
              onChange={(event) => toggleEvent(each, event.target.checked)}
            />
            <span>{WEBHOOK_EVENT_LABELS[each]}</span>
          </label>
        ))}
        {errors.events ? <p className="field-error">{errors.events}</p> : null}
      </fieldset>
      <fieldset className="webhook-form__choices" aria-describedby={`${formatId}-hint`}>
        <legend>Body</legend>
        <p className="field-hint" id={`${formatId}-hint`}>
          {FORMAT_HINTS[values.format]}
        </p>
        {WEBHOOK_FORMATS.map((format) => (
          <label key={format} className="webhook-form__choice">
            <input
              type="radio"
              name={formatId}
              value={format}
              checked={values.format === format}
              onChange={() => set("format", format)}
            />
            <span>{WEBHOOK_FORMAT_LABELS[format]}</span>
          </label>
        ))}
      </fieldset>
      <label className="webhook-form__choice">
        <input
          type="checkbox"
          checked={values.enabled}
          onChange={(event) => set("enabled", event.target.checked)}
        />
        <span>On: send events to this address</span>
      </label>
      <div className="webhook-form__actions">
        <button className="button button-primary" type="submit" disabled={busy}>
          {busy ? "Saving…" : submitLabel}
        </button>
        {onCancel ? (
          <button className="button" type="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
      {failure ? <Notice tone="error">{failure}</Notice> : null}
    </form>
  );
}
