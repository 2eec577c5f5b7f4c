/**
 * A record's fields as its list's spec names them, with their errors: the
 * form of a new record and the draft of an existing one both show these.
 */
import type { FieldErrors, UseFormRegister, UseFormSetValue } from "react-hook-form";
import type { EntryFields as Fields, ListSpec } from "../../../shared/admin/content.ts";
import { Field } from "../../components/Field.tsx";
import { FieldFrame } from "../../components/FieldFrame.tsx";
import { ImageField } from "./ImageField.tsx";

/** What a content form holds: at least the record's fields. */
export interface WithFields {
  fields: Fields;
}

interface EntryFieldsProps<T extends WithFields> {
  spec: ListSpec;
  register: UseFormRegister<T>;
  setValue: UseFormSetValue<T>;
  errors: FieldErrors<T>;
  imagePath: string;
}

/** A form's values with every field of the list present, empty where the record has none. */
export function fieldsOf(spec: ListSpec, fields: Fields | undefined): Fields {
  const names = [...spec.fields.map((field) => field.name), ...(spec.image ? ["imagePath"] : [])];
  return { ...Object.fromEntries(names.map((name) => [name, ""])), ...fields };
}

export function EntryFields<T extends WithFields>({
  spec,
  register,
  setValue,
  errors,
  imagePath,
}: EntryFieldsProps<T>) {
  // The forms' types are their own; the fields are at the same place in each.
  const registerField = register as unknown as UseFormRegister<WithFields>;
  const setField = setValue as unknown as UseFormSetValue<WithFields>;
  const fieldError = (name: string) => (errors as FieldErrors<WithFields>).fields?.[name]?.message;
  return (
    <>
      {spec.fields.map((field) =>
        field.rows ? (
          <FieldFrame
            key={field.name}
            label={field.label}
            hint={field.hint}
            error={fieldError(field.name)}
          >
            {(control) => (
              <textarea {...control} rows={field.rows} {...registerField(`fields.${field.name}`)} />
            )}
          </FieldFrame>
        ) : (
          <Field
            key={field.name}
            label={field.label}
            hint={field.hint}
            error={fieldError(field.name)}
            {...registerField(`fields.${field.name}`)}
          />
        ),
      )}
      {spec.image ? (
        <ImageField
          kind={spec.image}
          imagePath={imagePath}
          error={fieldError("imagePath")}
          onUploaded={(path) =>
            setField("fields.imagePath", path, { shouldDirty: true, shouldValidate: true })
          }
        />
      ) : null}
    </>
  );
}
