/**
 * One person's role: a choice and a button that saves it, shown once the
 * choice differs (a select that saved on every change would save each role
 * the keyboard's arrows pass through).
 */
import { type FormEvent, useId, useState } from "react";
import type { Person } from "../../../shared/admin/people.ts";
import { ROLES, type Role } from "../../../shared/admin/roles.ts";

interface RoleFormProps {
  person: Person;
  onSave: (person: Person, role: Role) => Promise<boolean>;
}

export function RoleForm({ person, onSave }: RoleFormProps) {
  const id = useId();
  const [chosen, setChosen] = useState<Role>(person.role);
  const [saving, setSaving] = useState(false);
  const label = person.name || person.email;

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    const saved = await onSave(person, chosen);
    setSaving(false);
    if (!saved) setChosen(person.role);
  }

  return (
    <form className="role-form" onSubmit={save}>
      <label htmlFor={id} className="visually-hidden">
        Role of {label}
      </label>
      <select id={id} value={chosen} onChange={(event) => setChosen(event.target.value as Role)}>
        {ROLES.map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
      </select>
      {chosen !== person.role ? (
        <button type="submit" className="button button-primary" disabled={saving}>
          Save<span className="visually-hidden"> role of {label}</span>
        </button>
      ) : null}
    </form>
  );
}
