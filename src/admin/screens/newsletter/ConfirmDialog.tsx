/**
 * Asks once more before a step that cannot be taken back (sending to every
 * subscriber, cancelling a send), in a native <dialog> (the site's Modal, as
 * the console's other confirmations). A refusal is shown inside it.
 */
import { type ReactNode, useId, useState } from "react";
import { Modal } from "../../../web/components/Modal.tsx";
import { failureText } from "../../api/refusal.ts";
import { Notice } from "../../components/Notice.tsx";

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** What happens, in a sentence or two. */
  children: ReactNode;
  confirmLabel: string;
  /** The button that closes it without doing anything. */
  dismissLabel?: string;
  /** Does the step; a thrown error is shown and the dialog stays open. */
  onConfirm(): Promise<void>;
  onClose(): void;
}

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  dismissLabel = "Go back",
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const titleId = useId();
  const textId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function close() {
    setFailure(null);
    onClose();
  }

  async function confirm() {
    setBusy(true);
    setFailure(null);
    try {
      await onConfirm();
    } catch (error) {
      setFailure(failureText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      onClose={close}
      labelledBy={titleId}
      describedBy={textId}
      role="alertdialog"
      className="confirm-dialog"
    >
      <h2 id={titleId}>{title}</h2>
      <div id={textId} className="confirm-dialog-text">
        {children}
      </div>
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={close}>
          {dismissLabel}
        </button>
        <button type="button" className="button button-danger" disabled={busy} onClick={confirm}>
          {busy ? "Working…" : confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
