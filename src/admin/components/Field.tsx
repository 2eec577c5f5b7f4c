/**
 * A labelled input with its hint and its error right below it, tied to the
 * input by aria-describedby, as the site's forms do (FieldFrame does the tying).
 */
import type { ComponentProps, ReactNode } from "react";
import { FieldFrame } from "./FieldFrame.tsx";

interface FieldProps extends Omit<ComponentProps<"input">, "id"> {
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
}

export function Field({ label, hint, error, ...input }: FieldProps) {
  return (
    <FieldFrame label={label} hint={hint} error={error}>
      {(control) => <input {...input} {...control} />}
    </FieldFrame>
  );
}
