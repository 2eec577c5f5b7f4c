/**
 * A subscriber as a person: their name, their tags, and the fields their
 * former list kept of them. An editor corrects the name and the tags (the
 * fields come from an import and are read only); the change is audited.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import {
  type PersonForm,
  personFormSchema,
  type SubscriberDetail,
  tagsFromText,
} from "../../../shared/admin/subscribers.ts";
import { api } from "../../api/client.ts";
import { showRefusal } from "../../api/refusal.ts";
import { Field } from "../../components/Field.tsx";
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
        {subscriber.fields.map((field) => (
          <div key={field.name}>
            <dt>{field.name}</dt>
            <dd>{field.value}</dd>
          </div>
        ))}
      </dl>
      {subscriber.fields.length > 0 ? (
        <p className="field-hint">
          The fields after the tags came with the list it was imported from.
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
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PersonForm>({
    resolver: zodResolver(personFormSchema),
    defaultValues: {
      firstName: subscriber.firstName ?? "",
      lastName: subscriber.lastName ?? "",
      tags: subscriber.tags.join(", "),
    },
  });

  const save = handleSubmit(async (values) => {
    setFailure(null);
    setSaved(false);
    try {
      await api.call("subscribers.savePerson", {
        params: { id: subscriber.id },
        body: { ...values, tags: tagsFromText(values.tags) },
      });
      setSaved(true);
      onSaved();
    } catch (error) {
      setFailure(showRefusal(error, setError, ["firstName", "lastName", "tags"]));
    }
  });

  return (
    <details className="person-edit">
      <summary>Edit the name and tags</summary>
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
        <Field
          label="Tags"
          hint="Separate tags with commas, as in: client, energy, 2025 forum."
          autoComplete="off"
          error={errors.tags?.message}
          {...register("tags")}
        />
        {failure ? <Notice tone="error">{failure}</Notice> : null}
        {saved ? <Notice tone="success">Saved.</Notice> : null}
        <div>
          <button type="submit" className="button button-primary" disabled={isSubmitting}>
            Save the name and tags
          </button>
        </div>
      </form>
    </details>
  );
}
