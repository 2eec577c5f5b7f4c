/**
 * Removing a person asks once more, in a native <dialog> (the site's Modal).
 * Their sessions end with the account; what they wrote stays, with their name.
 */
import { useId, useState } from "react";
import type { Person } from "../../../shared/admin/people.ts";
import { Modal } from "../../../web/components/Modal.tsx";
import { api } from "../../api/client.ts";
import { failureText } from "../../api/refusal.ts";
import { Notice } from "../../components/Notice.tsx";

interface RemoveDialogProps {
  person: Person | null;
  onClose: () => void;
  onRemoved: (person: Person) => void;
}

export function RemoveDialog({ person, onClose, onRemoved }: RemoveDialogProps) {
  const titleId = useId();
  const textId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const label = person ? person.name || person.email : "";

  function close() {
    setFailure(null);
    onClose();
  }

  async function remove() {
    if (!person) return;
    setRemoving(true);
    setFailure(null);
    try {
      await api.call("people.remove", { params: { id: person.id } });
      onRemoved(person);
    } catch (error) {
      setFailure(failureText(error));
    } finally {
      setRemoving(false);
    }
  }

  return (
    <Modal
      open={person !== null}
      onClose={close}
      labelledBy={titleId}
      describedBy={textId}
      role="alertdialog"
      className="confirm-dialog"
    >
      <h2 id={titleId}>Remove {label}?</h2>
      <div id={textId} className="confirm-dialog-text">
        <p className="confirm-dialog-target">{person?.email}</p>
        <p>
          They are signed out at once and can no longer sign in. Their notes and the audit log keep
          their name. To let them back in, invite them again.
        </p>
      </div>
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={close}>
          Cancel
        </button>
        <button type="button" className="button button-danger" disabled={removing} onClick={remove}>
          Remove {label}
        </button>
      </div>
    </Modal>
  );
}
