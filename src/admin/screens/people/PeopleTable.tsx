/**
 * Everyone with an account: who they are, their role (changeable), whether
 * they have accepted their invitation and set up a second factor, when they
 * last signed in, and the actions on them. On a phone each row is a card.
 */
import { type ColumnDef, createColumnHelper } from "@tanstack/react-table";
import type { Person } from "../../../shared/admin/people.ts";
import { ROLES, type Role } from "../../../shared/admin/roles.ts";
import { DataTable } from "../../components/DataTable.tsx";
import { Moment } from "./Moment.tsx";
import { RoleForm } from "./RoleForm.tsx";

interface PeopleTableProps {
  people: Person[];
  myId: number;
  onRoleChange: (person: Person, role: Role) => Promise<boolean>;
  onResend: (person: Person) => void;
  onRemove: (person: Person) => void;
}

const column = createColumnHelper<Person>();

export function PeopleTable({ people, myId, onRoleChange, onResend, onRemove }: PeopleTableProps) {
  // biome-ignore lint/suspicious/noExplicitAny: TanStack's own column type takes any value type
  const columns: ColumnDef<Person, any>[] = [
    column.accessor((person) => person.name || person.email, {
      id: "person",
      header: "Person",
      cell: ({ row: { original: person } }) => (
        <div className="person">
          <span className="person-name">
            {person.name || person.email}
            {person.id === myId ? <span className="badge">You</span> : null}
          </span>
          <span className="person-email">{person.email}</span>
        </div>
      ),
    }),
    column.accessor((person) => ROLES.indexOf(person.role), {
      id: "role",
      header: "Role",
      cell: ({ row: { original: person } }) => (
        <RoleForm key={`${person.id}-${person.role}`} person={person} onSave={onRoleChange} />
      ),
    }),
    column.display({
      id: "status",
      header: "Status",
      cell: ({ row: { original: person } }) => (
        <div className="person-status">
          {person.invited ? (
            <span className="badge badge-invited">Invited, not accepted</span>
          ) : (
            <span className="badge">Active</span>
          )}
          {person.secondFactor ? (
            <span className="badge badge-secure">Second factor on</span>
          ) : (
            <span className="badge badge-plain">No second factor</span>
          )}
        </div>
      ),
    }),
    column.accessor((person) => person.lastSignInAt ?? "", {
      id: "lastSignIn",
      header: "Last sign-in",
      cell: ({ row: { original: person } }) => (
        <span className="person-last">
          <span className="cell-label" aria-hidden="true">
            Last sign-in:{" "}
          </span>
          {person.lastSignInAt ? <Moment iso={person.lastSignInAt} /> : "Never"}
        </span>
      ),
    }),
    column.display({
      id: "actions",
      header: () => <span className="visually-hidden">Actions</span>,
      cell: ({ row: { original: person } }) => {
        const label = person.name || person.email;
        return (
          <div className="person-actions">
            {person.invited ? (
              <button type="button" className="button" onClick={() => onResend(person)}>
                Re-send invitation<span className="visually-hidden"> to {label}</span>
              </button>
            ) : null}
            <button type="button" className="button button-quiet" onClick={() => onRemove(person)}>
              Remove<span className="visually-hidden"> {label}</span>
            </button>
          </div>
        );
      },
    }),
  ];

  return (
    <div className="people-list">
      <DataTable
        caption="People with an account"
        rows={people}
        columns={columns}
        empty="Nobody yet."
      />
    </div>
  );
}
