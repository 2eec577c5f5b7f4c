/**
 * The frame of every console confirmation: a native <dialog> (the site's
 * Modal) in the alert role, named by its title and described by its text,
 * with the caller's form or buttons below.
 */
import { type ReactNode, useId } from "react";
import { Modal } from "../../web/components/Modal.tsx";

interface AlertDialogProps {
  open: boolean;
  title: string;
  /** What the step does, read out with the title. */
  text: ReactNode;
  /** The form or the buttons that answer it. */
  children: ReactNode;
  onClose(): void;
}

export function AlertDialog({ open, title, text, children, onClose }: AlertDialogProps) {
  const titleId = useId();
  const textId = useId();
  return (
    <Modal
      open={open}
      onClose={onClose}
      labelledBy={titleId}
      describedBy={textId}
      role="alertdialog"
      className="confirm-dialog"
    >
      <h2 id={titleId}>{title}</h2>
      <div id={textId} className="confirm-dialog-text">
        {text}
      </div>
      {children}
    </Modal>
  );
}
