/**
 * Asks once more before a step that cannot be taken back (sending an issue to
 * every subscriber, removing a person), in the console's alert dialog. A refusal is
 * shown inside it.
 */
import { type ReactNode, useState } from "react";
import { failureText } from "../api/refusal.ts";
import { AlertDialog } from "./AlertDialog.tsx";
import { Notice } from "./Notice.tsx";

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
    <AlertDialog open={open} title={title} text={children} onClose={close}>
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={close}>
          {dismissLabel}
        </button>
        <button type="button" className="button button-danger" disabled={busy} onClick={confirm}>
          {busy ? "Working…" : confirmLabel}
        </button>
      </div>
    </AlertDialog>
  );
}
