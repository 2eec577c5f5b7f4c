/**
 * A record's form, checked by the same schema the server checks it with.
 * A save sends the version the form was loaded from; if someone else saved
 * since, the server refuses it and the form keeps everything typed, with the
 * choice to load their version instead.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import {
  createSchemaOf,
  type Entry,
  type EntryFields,
  type ListSpec,
} from "../../../shared/admin/content.ts";
import { ApiError, api } from "../../api/client.ts";
import { failureText } from "../../api/refusal.ts";
import { Field } from "../../components/Field.tsx";
import { FieldFrame } from "../../components/FieldFrame.tsx";
import { ImageField } from "./ImageField.tsx";
import { SaveBar, type SaveOutcome } from "./SaveBar.tsx";

interface FormValues {
  fields: EntryFields;
  hidden: boolean;
}

function valuesOf(spec: ListSpec, entry: Entry | null): FormValues {
  const empty = Object.fromEntries(
    [...spec.fields.map((field) => field.name), ...(spec.image ? ["imagePath"] : [])].map(
      (name) => [name, ""],
    ),
  );
  return { fields: { ...empty, ...entry?.fields }, hidden: entry?.hidden ?? false };
}

interface EntryFormProps {
  spec: ListSpec;
  /** null for a new record. */
  entry: Entry | null;
  onWritten(entry: Entry): void;
  /** Loads the record as it is now (after someone else saved it). */
  onReload(): Promise<void>;
}

export function EntryForm({ spec, entry, onWritten, onReload }: EntryFormProps) {
  const schema = useMemo(() => createSchemaOf(spec), [spec]);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setValue,
    watch,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<FormValues>({ resolver: zodResolver(schema), defaultValues: valuesOf(spec, entry) });
  const [outcome, setOutcome] = useState<SaveOutcome | null>(null);

  // A saved, restored or reloaded record is what the form shows from then on.
  useEffect(() => {
    if (entry) reset(valuesOf(spec, entry));
  }, [entry, spec, reset]);

  const submit = handleSubmit(async (values) => {
    setOutcome(null);
    try {
      const saved = entry
        ? await api.call("content.save", {
            params: { list: spec.list, id: entry.id },
            body: { ...values, version: entry.version },
          })
        : await api.call("content.create", { params: { list: spec.list }, body: values });
      if (entry) {
        setOutcome({
          tone: "success",
          text: `Saved as version ${saved.version}. The site shows it now.`,
        });
      }
      onWritten(saved);
    } catch (error) {
      const fields = error instanceof ApiError ? Object.entries(error.fields) : [];
      for (const [field, reason] of fields) {
        if (field in values.fields) setError(`fields.${field}`, { message: reason });
      }
      setOutcome({
        tone: "error",
        text: failureText(error),
        stale: error instanceof ApiError && error.status === 409 && fields.length === 0,
      });
    }
  });

  async function loadTheirs() {
    setOutcome(null);
    await onReload();
  }

  const fieldError = (name: string) => errors.fields?.[name]?.message;
  const imagePath = watch("fields.imagePath");

  return (
    <form className="panel entry-form" onSubmit={submit} noValidate>
      {spec.fields.map((field) =>
        field.rows ? (
          <FieldFrame
            key={field.name}
            label={field.label}
            hint={field.hint}
            error={fieldError(field.name)}
          >
            {(control) => (
              <textarea {...control} rows={field.rows} {...register(`fields.${field.name}`)} />
            )}
          </FieldFrame>
        ) : (
          <Field
            key={field.name}
            label={field.label}
            hint={field.hint}
            error={fieldError(field.name)}
            {...register(`fields.${field.name}`)}
          />
        ),
      )}
      {spec.image ? (
        <ImageField
          kind={spec.image}
          imagePath={imagePath ?? ""}
          error={fieldError("imagePath")}
          onUploaded={(path) =>
            setValue("fields.imagePath", path, { shouldDirty: true, shouldValidate: true })
          }
        />
      ) : null}
      <div className="checkbox-field">
        <input id="entry-hidden" type="checkbox" {...register("hidden")} />
        <label htmlFor="entry-hidden">Hidden from the site</label>
        <p className="field-hint">
          A hidden {spec.singular} stays here, and the site leaves it out.
        </p>
      </div>
      <SaveBar
        label={entry ? "Save" : `Create ${spec.singular}`}
        saving={isSubmitting}
        unsaved={isDirty}
        outcome={outcome}
        onLoadTheirs={loadTheirs}
      />
    </form>
  );
}
