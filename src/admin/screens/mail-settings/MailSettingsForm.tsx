/**
 * The mail settings in one form, saved all at once on the version loaded:
 * when someone else saved first, the server refuses and the form keeps
 * what was typed, with the choice to load their settings. Each setting
 * says where its value comes from, with the way back to the server's.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { type ReactNode, useId, useState } from "react";
import { useForm } from "react-hook-form";
import {
  INQUIRY_RECIPIENTS_MAX,
  MAIL_SETTINGS_TEXTS,
  type MailSettingKey,
  type MailSettingsAnswer,
  NEWSLETTER_RATE_MAX,
  NEWSLETTER_RATE_MIN,
  WELCOME_TEXT_MAX,
} from "../../../shared/admin/mail-settings.ts";
import { ApiError, api } from "../../api/client.ts";
import { showRefusal } from "../../api/refusal.ts";
import { Field } from "../../components/Field.tsx";
import { FieldFrame } from "../../components/FieldFrame.tsx";
import { SaveBar, type SaveOutcome } from "../content/SaveBar.tsx";
import {
  defaultValues,
  type FieldName,
  type FormState,
  formStateOf,
  formStateSchema,
  SETTING_OF,
  saveBody,
  serverValueText,
} from "./settings-form.ts";

const FIELDS = Object.keys(SETTING_OF) as FieldName[];

interface MailSettingsFormProps {
  answer: MailSettingsAnswer;
  onWritten(answer: MailSettingsAnswer): void;
  /** Loads the settings as they are now (after someone else saved them). */
  onReload(): void;
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
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    clearErrors,
    watch,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<FormState>({
    resolver: zodResolver(formStateSchema),
    // Saved or reloaded settings are what the form shows from then on.
    values: formStateOf(answer),
  });
  const [outcome, setOutcome] = useState<SaveOutcome | null>(null);
  const optInId = useId();
  const setHere = watch("setHere");

  /** A field edited: its setting is set here from then on. */
  const field = (name: FieldName) =>
    register(name, {
      onChange: () => setValue(`setHere.${SETTING_OF[name]}`, true, { shouldDirty: true }),
    });

  /** Back to the server's setting: its value in the fields, nothing of it saved. */
  function backToServer(key: MailSettingKey) {
    const server = defaultValues(answer);
    const fields = FIELDS.filter((name) => SETTING_OF[name] === key);
    for (const name of fields) setValue(name, server[name], { shouldDirty: true });
    setValue(`setHere.${key}`, false, { shouldDirty: true });
    clearErrors(fields);
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

  const submit = handleSubmit(async (state) => {
    setOutcome(null);
    const made = saveBody(state);
    // The schema has checked what saveBody refuses.
    if ("refused" in made) return;
    try {
      const saved = await api.call("mailSettings.save", { body: made.body });
      setOutcome({ tone: "success", text: MAIL_SETTINGS_TEXTS.saved });
      onWritten(saved);
    } catch (error) {
      setOutcome({
        tone: "error",
        text:
          showRefusal(error, setError, FIELDS) ??
          "Some settings need correcting: see the messages by them.",
        stale: error instanceof ApiError && error.status === 409,
      });
    }
  });

  function loadTheirs() {
    setOutcome(null);
    onReload();
  }

  return (
    <form className="panel mail-settings-form" onSubmit={submit} noValidate>
      <Setting title="Sender" source={source("sender")}>
        <p className="field-hint">The From of every mail the website sends.</p>
        <div className="mail-setting__pair">
          <Field
            label="Sender's name"
            error={errors.senderName?.message}
            autoComplete="off"
            {...field("senderName")}
          />
          <Field
            label="Sender's address"
            type="email"
            error={errors.senderAddress?.message}
            autoComplete="off"
            {...field("senderAddress")}
          />
        </div>
      </Setting>

      <Setting title="Where inquiries go" source={source("inquiryTo")}>
        <FieldFrame
          label="Addresses"
          hint={`One a line, up to ${INQUIRY_RECIPIENTS_MAX}. Each gets every inquiry's notification.`}
          error={errors.inquiryTo?.message}
        >
          {(control) => <textarea {...control} rows={3} {...field("inquiryTo")} />}
        </FieldFrame>
      </Setting>

      <Setting title="Newsletter's sending rate" source={source("newsletterRate")}>
        <Field
          label="Copies a second"
          hint={`From ${NEWSLETTER_RATE_MIN} to ${NEWSLETTER_RATE_MAX.toLocaleString("en-US")}: keep it under your mail provider's limit. A send already under way keeps the rate it started with.`}
          inputMode="numeric"
          error={errors.newsletterRate?.message}
          {...field("newsletterRate")}
        />
      </Setting>

      <Setting title="Double opt-in" source={source("doubleOptIn")}>
        <div className="checkbox-field">
          <input
            id={optInId}
            type="checkbox"
            aria-describedby={`${optInId}-hint`}
            {...field("doubleOptIn")}
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
          error={errors.welcomeText?.message}
        >
          {(control) => <textarea {...control} rows={6} {...field("welcomeText")} />}
        </FieldFrame>
      </Setting>

      <SaveBar
        label="Save"
        saving={isSubmitting}
        unsaved={isDirty}
        outcome={outcome}
        onLoadTheirs={loadTheirs}
      />
    </form>
  );
}
