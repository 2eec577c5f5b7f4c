/**
 * A modal on the native <dialog>: the browser makes the rest of the page inert
 * (focus stays inside) and Esc closes it; focus goes back where it was.
 */
import { type ReactNode, useEffect, useRef } from "react";

interface ModalProps {
  open: boolean;
  onClose: () => void;
  labelledBy: string;
  describedBy?: string;
  className?: string;
  role?: "dialog" | "alertdialog";
  /** Where focus goes on close; by default, wherever it was when the modal opened. */
  returnFocusTo?: HTMLElement | null | undefined;
  children: ReactNode;
}

export function Modal({
  open,
  onClose,
  labelledBy,
  describedBy,
  className,
  role,
  returnFocusTo,
  children,
}: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const focusTarget = returnFocusTo ?? (document.activeElement as HTMLElement | null);
    dialog.showModal();
    return () => {
      dialog.close();
      focusTarget?.focus();
    };
  }, [open, returnFocusTo]);

  return (
    <dialog
      ref={ref}
      className={className ? `modal ${className}` : "modal"}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      role={role}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open ? children : null}
    </dialog>
  );
}
