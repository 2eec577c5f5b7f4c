/**
 * The five site facts in one form, checked by the schema the server checks
 * them with. A save sends the version the form was loaded from; if someone
 * else saved since, the server refuses it and the form keeps everything
 * typed, with the choice to load their version instead.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { SITE_FACT_FIELDS, type SiteFactsAnswer } from "../../../shared/admin/site-facts.ts";
import { type SiteFacts, siteFactsSchema } from "../../../shared/site-facts.ts";
import { ApiError, api } from "../../api/client.ts";
import { failureText } from "../../api/refusal.ts";
import { Field } from "../../components/Field.tsx";
import { FieldFrame } from "../../components/FieldFrame.tsx";
import { RestoredNotice } from "../../forms/FormKeeping.tsx";
import { useKeptTyping, useShowsVersion } from "../../forms/use-kept-typing.tsx";
import { SaveBar, type SaveOutcome } from "./SaveBar.tsx";

const formSchema = z.object({ fields: siteFactsSchema });

interface FormValues {
  fields: SiteFacts;
}

const valuesOf = (answer: SiteFactsAnswer): FormValues => ({
  fields: answer.fields as SiteFacts,
});

interface SiteFactsFormProps {
  facts: SiteFactsAnswer;
  onWritten(facts: SiteFactsAnswer): void;
  /** Loads the facts as they are now (after someone else saved them). */
  onReload(): void;
}

export function SiteFactsForm({ facts, onWritten, onReload }: SiteFactsFormProps) {
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: valuesOf(facts),
  });
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting, isDirty },
  } = form;
  const [outcome, setOutcome] = useState<SaveOutcome | null>(null);
  const kept = useKeptTyping(form, "site-facts");
  // Saved, restored or reloaded facts are what the form shows from then on.
  useShowsVersion(form, kept, facts.version, () => valuesOf(facts));

  const submit = handleSubmit(async (values) => {
    setOutcome(null);
    try {
      const saved = await api.call("siteFacts.save", {
        body: { fields: values.fields, version: facts.version },
      });
      kept.saved(values);
      setOutcome({
        tone: "success",
        text: `Saved as version ${saved.version}. The site shows it now.`,
      });
      onWritten(saved);
    } catch (error) {
      setOutcome({
        tone: "error",
        text: failureText(error),
        stale: error instanceof ApiError && error.status === 409,
      });
    }
  });

  function loadTheirs() {
    setOutcome(null);
    onReload();
  }

  return (
    <form className="panel entry-form site-facts-form" onSubmit={submit} noValidate>
      {kept.restoredAt ? <RestoredNotice at={kept.restoredAt} onDiscard={kept.discard} /> : null}
      {SITE_FACT_FIELDS.map(({ name, label, hint, rows, type }) => {
        const error = errors.fields?.[name]?.message;
        return rows ? (
          <FieldFrame key={name} label={label} hint={hint} error={error}>
            {(control) => <textarea {...control} rows={rows} {...register(`fields.${name}`)} />}
          </FieldFrame>
        ) : (
          <Field
            key={name}
            label={label}
            hint={hint}
            error={error}
            type={type}
            {...register(`fields.${name}`)}
          />
        );
      })}
      <SaveBar
        label={"Save"}
        saving={isSubmitting}
        unsaved={isDirty}
        outcome={outcome}
        onLoadTheirs={loadTheirs}
      />
      {kept.leaveDialog}
    </form>
  );
}
