/**
 * Adding or changing a webhook: its name, the address, the events it hears,
 * the body it is sent and whether it is on. The server checks the address
 * (https in production; no private network unless the server allows it)
 * and names the field it refuses.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  WEBHOOK_FORMAT_LABELS,
  WEBHOOK_FORMATS,
  type WebhookFormat,
  type WebhookSave,
  type WebhookView,
  webhookSaveSchema,
} from "../../../shared/admin/webhooks.ts";
import { showRefusal } from "../../api/refusal.ts";
import { Field } from "../../components/Field.tsx";
import { Notice } from "../../components/Notice.tsx";

const FORMAT_HINTS: Record<WebhookFormat, string> = {
  slack: 'A sentence in {"text": …}, which Slack, Mattermost and Teams post as a message.',
  json: 'The event as {"type", "timestamp", "data"}, for a CRM or your own script.',
};

const EMPTY: WebhookSave = {
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
  onSubmit(values: WebhookSave): Promise<void>;
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
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<WebhookSave>({
    resolver: zodResolver(webhookSaveSchema),
    defaultValues: initial
      ? {
          name: initial.name,
          url: initial.url,
          events: initial.events,
          format: initial.format,
          enabled: initial.enabled,
        }
      : EMPTY,
  });

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await onSubmit(values);
      if (!initial) reset(EMPTY);
    } catch (error) {
      setFailure(showRefusal(error, setError, webhookSaveSchema.keyof().options));
    }
  });

  return (
    <form className="webhook-form" onSubmit={submit} noValidate>
      <Field
        label="Name"
        hint="The tool it tells, as you will look for it in the log."
        autoComplete="off"
        error={errors.name?.message}
        {...register("name")}
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
        error={errors.url?.message}
        {...register("url")}
      />
      <fieldset className="webhook-form__choices" aria-describedby={`${eventsId}-hint`}>
        <legend>Events</legend>
        <p className="field-hint" id={`${eventsId}-hint`}>
          Each one is sent as it happens.
        </p>
        {WEBHOOK_EVENTS.map((each) => (
          <label key={each} className="webhook-form__choice">
            <input type="checkbox" value={each} {...register("events")} />
            <span>{WEBHOOK_EVENT_LABELS[each]}</span>
          </label>
        ))}
        {errors.events ? <p className="field-error">{errors.events.message}</p> : null}
      </fieldset>
      <fieldset className="webhook-form__choices" aria-describedby={`${formatId}-hint`}>
        <legend>Body</legend>
        <p className="field-hint" id={`${formatId}-hint`}>
          {FORMAT_HINTS[watch("format")]}
        </p>
        {WEBHOOK_FORMATS.map((format) => (
          <label key={format} className="webhook-form__choice">
            <input type="radio" value={format} {...register("format")} />
            <span>{WEBHOOK_FORMAT_LABELS[format]}</span>
          </label>
        ))}
      </fieldset>
      <label className="webhook-form__choice">
        <input type="checkbox" {...register("enabled")} />
        <span>On: send events to this address</span>
      </label>
      <div className="webhook-form__actions">
        <button className="button button-primary" type="submit" disabled={isSubmitting}>
          {isSubmitting ? "Saving…" : submitLabel}
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
