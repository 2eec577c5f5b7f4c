/**
 * Inviting someone: their name, address and role. The server creates the
 * account without a password and e-mails a link to set one.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { type Invite, inviteSchema, type Person } from "../../../shared/admin/people.ts";
import { ROLE_LABELS, ROLES, type Role } from "../../../shared/admin/roles.ts";
import { api } from "../../api/client.ts";
import { showRefusal } from "../../api/refusal.ts";
import { Field } from "../../components/Field.tsx";
import { Notice } from "../../components/Notice.tsx";

const ROLE_NAMES: Record<Role, string> = { viewer: "Viewer", editor: "Editor", owner: "Owner" };

export function InviteForm({ onInvited }: { onInvited: (person: Person) => void }) {
  const roleId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<Invite>({
    resolver: zodResolver(inviteSchema),
    defaultValues: { name: "", email: "", role: "editor" },
  });

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const person = await api.call("people.invite", { body: values });
      reset();
      onInvited(person);
    } catch (error) {
      setFailure(showRefusal(error, setError, inviteSchema.keyof().options));
    }
  });

  return (
    <section className="panel invite" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <p className="panel-lead">
        They get an e-mail with a link to choose their password. The link works once, for seven
        days.
      </p>
      <form onSubmit={submit} noValidate className="invite-form">
        <Field label="Name" autoComplete="off" error={errors.name?.message} {...register("name")} />
        <Field
          label="E-mail address"
          type="email"
          autoComplete="off"
          spellCheck={false}
          error={errors.email?.message}
          {...register("email")}
        />
        <div className="field">
          <label htmlFor={roleId}>Role</label>
          <select
            id={roleId}
            aria-invalid={errors.role ? true : undefined}
            aria-describedby={[`${roleId}-hint`, errors.role ? `${roleId}-error` : ""]
              .join(" ")
              .trim()}
            {...register("role")}
          >
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_NAMES[role]}
              </option>
            ))}
          </select>
          <p className="field-hint" id={`${roleId}-hint`}>
            {ROLE_LABELS[watch("role")] ?? ""}
          </p>
          {errors.role ? (
            <p className="field-error" id={`${roleId}-error`}>
              {errors.role.message}
            </p>
          ) : null}
        </div>
        <div className="invite-submit">
          <button className="button button-primary" type="submit" disabled={isSubmitting}>
            {isSubmitting ? "Sending…" : "Send invitation"}
          </button>
        </div>
        {failure ? <Notice tone="error">{failure}</Notice> : null}
      </form>
    </section>
  );
}
