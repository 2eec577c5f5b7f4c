/**
 * Removing a person asks once more. Their sessions end with the account;
 * what they wrote stays, with their name.
 */
import type { Person } from "../../../shared/admin/people.ts";
import { api } from "../../api/client.ts";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";

interface RemoveDialogProps {
  person: Person | null;
  onClose: () => void;
  onRemoved: (person: Person) => void;
}

export function RemoveDialog({ person, onClose, onRemoved }: RemoveDialogProps) {
  const label = person ? person.name || person.email : "";

  async function remove() {
    if (!person) return;
    await api.call("people.remove", { params: { id: person.id } });
    onRemoved(person);
  }

  return (
    <ConfirmDialog
      open={person !== null}
      title={`Remove ${label}?`}
      confirmLabel={`Remove ${label}`}
      dismissLabel="Cancel"
      onConfirm={remove}
      onClose={onClose}
    >
      <p className="confirm-dialog-target">{person?.email}</p>
      <p>
        They are signed out at once and can no longer sign in. Their notes and the audit log keep
        their name. To let them back in, invite them again.
      </p>
    </ConfirmDialog>
  );
}
