/**
 * A subscriber as a person: their name, their tags, and the fields their
 * former list kept of them or the firm wrote. An editor corrects the name,
 * the tags (one a line: a tag may hold a comma) and the fields, adds a
 * field or erases one; the change is audited.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useFieldArray, useForm, useWatch } from "react-hook-form";
import {
  PERSON_LIMITS,
  type PersonForm,
  type PersonFormValues,
  personFormSchema,
  type SubscriberDetail,
} from "../../../shared/admin/subscribers.ts";
import { api } from "../../api/client.ts";
import { showRefusal } from "../../api/refusal.ts";
import { Field } from "../../components/Field.tsx";
import { FieldFrame } from "../../components/FieldFrame.tsx";
import { Notice } from "../../components/Notice.tsx";

export function PersonPanel({
  subscriber,
  editable,
  onSaved,
}: {
  subscriber: SubscriberDetail;
  editable: boolean;
  onSaved: () => void;
}) {
  return (
    <section className="panel person-panel" aria-labelledby="person-title">
      <h2 id="person-title">The person</h2>
      <dl className="person-facts">
        <div>
          <dt>Name</dt>
          <dd>{subscriber.name ?? <span className="quiet">Not known</span>}</dd>
        </div>
        <div>
          <dt>Tags</dt>
          <dd>
            {subscriber.tags.length > 0 ? (
              <ul className="tag-list">
                {subscriber.tags.map((tag) => (
                  <li key={tag} className="tag">
                    {tag}
                  </li>
                ))}
              </ul>
            ) : (
              <span className="quiet">None</span>
            )}
          </dd>
        </div>
        {subscriber.topics.length > 0 ? (
          <div>
            <dt>Topics chosen</dt>
            <dd>{subscriber.topics.join(", ")}</dd>
          </div>
        ) : null}
        {subscriber.fields.map((field) => (
          <div key={field.name}>
            <dt>{field.name}</dt>
            <dd>{field.value}</dd>
          </div>
        ))}
      </dl>
      {subscriber.fields.length > 0 ? (
        <p className="field-hint">
          The fields after the tags came with the list it was imported from, or were written here.
        </p>
      ) : null}
      {editable ? <PersonEdit subscriber={subscriber} onSaved={onSaved} /> : null}
    </section>
  );
}

function PersonEdit({
  subscriber,
  onSaved,
}: {
  subscriber: SubscriberDetail;
  onSaved: () => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PersonForm, unknown, PersonFormValues>({
    resolver: zodResolver(personFormSchema),
    defaultValues: {
      firstName: subscriber.firstName ?? "",
      lastName: subscriber.lastName ?? "",
      tags: subscriber.tags.join("\n"),
      fields: subscriber.fields,
    },
  });
  const fields = useFieldArray({ control, name: "fields" });
  // Each erase button is named after its field, as it is typed.
  const typed = useWatch({ control, name: "fields" });

  const save = handleSubmit(async (values) => {
    setFailure(null);
    setSaved(false);
    try {
      await api.call("subscribers.savePerson", { params: { id: subscriber.id }, body: values });
      setSaved(true);
      onSaved();
    } catch (error) {
      setFailure(showRefusal(error, setError, ["firstName", "lastName", "tags"]));
    }
  });

  return (
    <details className="person-edit">
      <summary>Edit the name, tags and fields</summary>
      <form className="entry-form" onSubmit={save} noValidate>
        <div className="person-names">
          <Field
            label="First name"
            autoComplete="off"
            error={errors.firstName?.message}
            {...register("firstName")}
          />
          <Field
            label="Last name"
            autoComplete="off"
            error={errors.lastName?.message}
            {...register("lastName")}
          />
        </div>
        <FieldFrame
          label="Tags"
          hint={`One tag a line, at most ${PERSON_LIMITS.tags}.`}
          error={errors.tags?.message}
        >
          {(frame) => <textarea rows={4} {...frame} {...register("tags")} />}
        </FieldFrame>
        <fieldset className="person-fields">
          <legend>Fields</legend>
          {fields.fields.length === 0 ? <p className="quiet">No field.</p> : null}
          {fields.fields.map((field, index) => (
            <div key={field.id} className="person-field">
              <Field
                label="Name"
                autoComplete="off"
                error={errors.fields?.[index]?.name?.message}
                {...register(`fields.${index}.name`)}
              />
              <Field
                label="Text"
                autoComplete="off"
                error={errors.fields?.[index]?.value?.message}
                {...register(`fields.${index}.value`)}
              />
              <button
                type="button"
                className="button button-quiet person-field__remove"
                onClick={() => fields.remove(index)}
                aria-label={`Erase the field ${typed?.[index]?.name.trim() || index + 1}`}
              >
                Erase
              </button>
            </div>
          ))}
          {errors.fields?.message ? <p className="field-error">{errors.fields.message}</p> : null}
          {fields.fields.length < PERSON_LIMITS.fields ? (
            <div>
              <button
                type="button"
                className="button"
                onClick={() => fields.append({ name: "", value: "" })}
              >
                Add a field
              </button>
            </div>
          ) : null}
        </fieldset>
        {failure ? <Notice tone="error">{failure}</Notice> : null}
        {saved ? <Notice tone="success">Saved.</Notice> : null}
        <div>
          <button type="submit" className="button button-primary" disabled={isSubmitting}>
            Save the person
          </button>
        </div>
      </form>
    </details>
  );
}
