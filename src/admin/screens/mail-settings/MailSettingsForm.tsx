/**
 * The mail settings in one form, saved all at once on the version loaded:
 * when someone else saved first, the server refuses and the form keeps
 * what was typed, with the choice to load their settings. Each setting
 * says where its value comes from, with the way back to the server's.
 */
import { type ReactNode, useId, useState } from "react";
import {
  INQUIRY_RECIPIENTS_MAX,
  MAIL_SETTINGS_TEXTS,
  type MailSettingKey,
  type MailSettingsAnswer,
  NEWSLETTER_RATE_MAX,
  NEWSLETTER_RATE_MIN,
  WELCOME_TEXT_MAX,
} from "../../../shared/admin/mail-settings.ts";
import { useResetOnChange } from "../../../web/hooks/useResetOnChange.ts";
import { ApiError, api } from "../../api/client.ts";
import { failureText } from "../../api/refusal.ts";
import { Field } from "../../components/Field.tsx";
import { FieldFrame } from "../../components/FieldFrame.tsx";
import { SaveBar, type SaveOutcome } from "../content/SaveBar.tsx";
import {
  defaultValues,
  type FieldName,
  type FormValues,
  SETTING_OF,
  type SetHere,
  saveBody,
  serverValueText,
  setHereOf,
  valuesOf,
} from "./settings-form.ts";

type Errors = Partial<Record<FieldName, string>>;

interface MailSettingsFormProps {
  answer: MailSettingsAnswer;
  onWritten(answer: MailSettingsAnswer): void;
  /** Loads the settings as they are now (after someone else saved them). */
  onReload(): Promise<void>;
}

/** One setting: its fields, and where its value comes from. */
function Setting({
  title,
  source,
  children,
}: {
  title: string;
  source: ReactNode;
  children: ReactNode;
}) {
  return (
    <fieldset className="mail-setting">
      <legend>{title}</legend>
      {children}
      <div className="mail-setting__source">{source}</div>
    </fieldset>
  );
}

export function MailSettingsForm({ answer, onWritten, onReload }: MailSettingsFormProps) {
  const [values, setValues] = useState<FormValues>(() => valuesOf(answer));
  const [setHere, setSetHere] = useState<SetHere>(() => setHereOf(answer));
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<SaveOutcome | null>(null);
  const optInId = useId();

  // Saved or reloaded settings are what the form shows from then on.
  useResetOnChange(answer, () => {
    setValues(valuesOf(answer));
    setSetHere(setHereOf(answer));
    setErrors({});
  });

  const unsaved =
    JSON.stringify(values) !== JSON.stringify(valuesOf(answer)) ||
    JSON.stringify(setHere) !== JSON.stringify(setHereOf(answer));

  function change<K extends FieldName>(field: K, value: FormValues[K]) {
    setValues((current) => ({ ...current, [field]: value }));
    setSetHere((current) => ({ ...current, [SETTING_OF[field]]: true }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  }

  /** Back to the server's setting: its value in the fields, nothing of it saved. */
  function backToServer(key: MailSettingKey) {
    const server = defaultValues(answer);
    const fields = (Object.keys(SETTING_OF) as FieldName[]).filter((f) => SETTING_OF[f] === key);
    setValues((current) => ({
      ...current,
      ...Object.fromEntries(fields.map((field) => [field, server[field]])),
    }));
    setSetHere((current) => ({ ...current, [key]: false }));
    setErrors((current) => ({
      ...current,
      ...Object.fromEntries(fields.map((field) => [field, undefined])),
    }));
  }

  function source(key: MailSettingKey) {
    const server = serverValueText(key, answer);
    if (!setHere[key]) {
      return (
        <p className="field-hint">
          {MAIL_SETTINGS_TEXTS.fromServer} {server}.
        </p>
      );
    }
    return (
      <p className="field-hint">
        Set here. The server's setting is {server}.{" "}
        <button type="button" className="button button-quiet" onClick={() => backToServer(key)}>
          {MAIL_SETTINGS_TEXTS.useServer}
        </button>
      </p>
    );
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setOutcome(null);
    const made = saveBody(values, setHere, answer.version);
    if ("refused" in made) {
      setErrors(made.refused);
      return;
    }
    setSaving(true);
    try {
      const saved = await api.call("mailSettings.save", { body: made.body });
      setOutcome({ tone: "success", text: MAIL_SETTINGS_TEXTS.saved });
      onWritten(saved);
    } catch (error) {
      const fields = error instanceof ApiError ? (error.fields as Errors) : {};
      setErrors(fields);
      const named = Object.keys(fields).length > 0;
      setOutcome({
        tone: "error",
        text: named
          ? "Some settings need correcting: see the messages by them."
          : failureText(error),
        stale: error instanceof ApiError && error.status === 409,
      });
    } finally {
      setSaving(false);
    }
  }

  async function loadTheirs() {
    setOutcome(null);
    await onReload();
  }

  return (
    <form className="panel mail-settings-form" onSubmit={submit} noValidate>
      <Setting title="Sender" source={source("sender")}>
        <p className="field-hint">The From of every mail the website sends.</p>
        <div className="mail-setting__pair">
          <Field
            label="Sender's name"
            value={values.senderName}
            error={errors.senderName}
            autoComplete="off"
            onChange={(event) => change("senderName", event.target.value)}
          />
          <Field
            label="Sender's address"
            type="email"
            value={values.senderAddress}
            error={errors.senderAddress}
            autoComplete="off"
            onChange={(event) => change("senderAddress", event.target.value)}
          />
        </div>
      </Setting>

      <Setting title="Where inquiries go" source={source("inquiryTo")}>
        <FieldFrame
          label="Addresses"
          hint={`One a line, up to ${INQUIRY_RECIPIENTS_MAX}. Each gets every inquiry's notification.`}
          error={errors.inquiryTo}
        >
          {(control) => (
            <textarea
              {...control}
              rows={3}
              value={values.inquiryTo}
              onChange={(event) => change("inquiryTo", event.target.value)}
            />
          )}
        </FieldFrame>
      </Setting>

      <Setting title="Newsletter's sending rate" source={source("newsletterRate")}>
        <Field
          label="Copies a second"
          hint={`From ${NEWSLETTER_RATE_MIN} to ${NEWSLETTER_RATE_MAX.toLocaleString("en-US")}: keep it under your mail provider's limit. A send already under way keeps the rate it started with.`}
          inputMode="numeric"
          value={values.newsletterRate}
          error={errors.newsletterRate}
          onChange={(event) => change("newsletterRate", event.target.value)}
        />
      </Setting>

      <Setting title="Double opt-in" source={source("doubleOptIn")}>
        <div className="checkbox-field">
          <input
            id={optInId}
            type="checkbox"
            checked={values.doubleOptIn}
            aria-describedby={`${optInId}-hint`}
            onChange={(event) => change("doubleOptIn", event.target.checked)}
          />
          <label htmlFor={optInId}>Ask new subscribers to confirm their address</label>
          <p className="field-hint" id={`${optInId}-hint`}>
            They then get a link to confirm instead of the welcome, and issues only once confirmed.
          </p>
        </div>
      </Setting>

      <Setting title="Welcome text" source={source("welcomeText")}>
        <FieldFrame
          label="The welcome's text"
          hint={`What a new subscriber reads in the welcome. Markdown: a blank line starts a paragraph, **bold**, [a link](https://…). Empty: the built-in welcome. The unsubscribe link is always added below it. Up to ${WELCOME_TEXT_MAX.toLocaleString("en-US")} characters.`}
          error={errors.welcomeText}
        >
          {(control) => (
            <textarea
              {...control}
              rows={6}
              value={values.welcomeText}
              onChange={(event) => change("welcomeText", event.target.value)}
            />
          )}
        </FieldFrame>
      </Setting>

      <SaveBar
        label="Save"
        saving={saving}
        unsaved={unsaved}
        outcome={outcome}
        onLoadTheirs={loadTheirs}
      />
    </form>
  );
}
