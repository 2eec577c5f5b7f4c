/**
 * One person's role: a choice and a button that saves it, shown once the
 * choice differs (a select that saved on every change would save each role
 * the keyboard's arrows pass through).
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useId } from "react";
import { useForm } from "react-hook-form";
import { type Person, roleChangeSchema } from "../../../shared/admin/people.ts";
import { ROLES, type Role } from "../../../shared/admin/roles.ts";

interface RoleFormProps {
  person: Person;
  onSave: (person: Person, role: Role) => Promise<boolean>;
}

export function RoleForm({ person, onSave }: RoleFormProps) {
  const id = useId();
  const {
    register,
    handleSubmit,
    reset,
    watch,
    formState: { isSubmitting },
  } = useForm<{ role: Role }>({
    resolver: zodResolver(roleChangeSchema),
    defaultValues: { role: person.role },
  });
  const label = person.name || person.email;

  const save = handleSubmit(async ({ role }) => {
    if (!(await onSave(person, role))) reset({ role: person.role });
  });

  return (
    <form className="role-form" onSubmit={save}>
      <label htmlFor={id} className="visually-hidden">
        Role of {label}
      </label>
      <select id={id} {...register("role")}>
        {ROLES.map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
      </select>
      {watch("role") !== person.role ? (
        <button type="submit" className="button button-primary" disabled={isSubmitting}>
          Save<span className="visually-hidden"> role of {label}</span>
        </button>
      ) : null}
    </form>
  );
}
