/**
 * A new record's form, checked by the same schema the server checks it
 * with. Created, the record opens in its own screen, where every later
 * change is a draft (DraftForm.tsx).
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import {
  createSchemaOf,
  type Entry,
  type EntryFields as Fields,
  type ListSpec,
} from "../../../shared/admin/content.ts";
import { ApiError, api } from "../../api/client.ts";
import { failureText } from "../../api/refusal.ts";
import { EntryFields, fieldsOf } from "./EntryFields.tsx";
import { SaveBar, type SaveOutcome } from "./SaveBar.tsx";

interface FormValues {
  fields: Fields;
  hidden: boolean;
}

interface EntryFormProps {
  spec: ListSpec;
  onCreated(entry: Entry): void;
}

export function EntryForm({ spec, onCreated }: EntryFormProps) {
  const schema = useMemo(() => createSchemaOf(spec), [spec]);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    watch,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<FormValues>({
    resolver: zodResolver(schema),
    defaultValues: { fields: fieldsOf(spec, undefined), hidden: false },
  });
  const [outcome, setOutcome] = useState<SaveOutcome | null>(null);

  const submit = handleSubmit(async (values) => {
    setOutcome(null);
    try {
      onCreated(await api.call("content.create", { params: { list: spec.list }, body: values }));
    } catch (error) {
      const fields = error instanceof ApiError ? Object.entries(error.fields) : [];
      for (const [field, reason] of fields) {
        if (field in values.fields) setError(`fields.${field}`, { message: reason });
      }
      setOutcome({ tone: "error", text: failureText(error) });
    }
  });

  return (
    <form className="panel entry-form" onSubmit={submit} noValidate>
      <EntryFields
        spec={spec}
        register={register}
        setValue={setValue}
        errors={errors}
        imagePath={watch("fields.imagePath") ?? ""}
      />
      <div className="checkbox-field">
        <input id="entry-hidden" type="checkbox" {...register("hidden")} />
        <label htmlFor="entry-hidden">Hidden from the site</label>
        <p className="field-hint">
          A hidden {spec.singular} stays here, and the site leaves it out.
        </p>
      </div>
      <SaveBar
        label={`Create ${spec.singular}`}
        saving={isSubmitting}
        unsaved={isDirty}
        outcome={outcome}
      />
    </form>
  );
}
