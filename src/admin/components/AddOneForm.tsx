/**
 * A form of one field that adds one thing to a list (a goal's page, a
 * topic): checked with the list's schema as it is sent, refused beside the
 * field in the server's words, emptied once added.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { type DefaultValues, type FieldValues, type Path, useForm } from "react-hook-form";
import type { z } from "zod";
import { showRefusal } from "../api/refusal.ts";
import { Field } from "./Field.tsx";
import { Notice } from "./Notice.tsx";

interface AddOneFormProps<N extends string> {
  /** The field's name, in the schema and in the server's refusals. */
  name: N;
  schema: z.ZodType<Record<N, string>, Record<N, string>>;
  label: string;
  hint: string;
  /** The button's words, and while adding. */
  action: string;
  busyAction: string;
  className: string;
  add(values: Record<N, string>): Promise<unknown>;
  onAdded(): void;
}

export function AddOneForm<N extends string>(props: AddOneFormProps<N>) {
  const { name, schema, label, hint, action, busyAction, className, add, onAdded } = props;
  type Values = Record<N, string> & FieldValues;
  const field = name as unknown as Path<Values>;
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    resolver: zodResolver(schema as z.ZodType<Values, Values>),
    defaultValues: { [name]: "" } as DefaultValues<Values>,
  });

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await add(values);
      reset();
      onAdded();
    } catch (error) {
      setFailure(showRefusal(error, setError, [field]));
    }
  });

  return (
    <form className={className} onSubmit={submit} noValidate>
      <Field
        label={label}
        hint={hint}
        autoComplete="off"
        error={errors[name]?.message as string | undefined}
        {...register(field)}
      />
      <button className="button" type="submit" disabled={isSubmitting}>
        {isSubmitting ? busyAction : action}
      </button>
      {failure ? <Notice tone="error">{failure}</Notice> : null}
    </form>
  );
}
