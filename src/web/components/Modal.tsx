/**
 * A modal on the native <dialog>: the browser makes the rest of the page inert
 * (focus stays inside) and Esc closes it; focus goes back where it was. A
 * click on the backdrop closes it too, and the page behind does not scroll
 * while it is open (modal.css).
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
    // biome-ignore lint/a11y/useKeyWithClickEvents: from the keyboard, Esc closes it (onCancel)
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
      // The backdrop belongs to the <dialog> itself: a click whose target is
      // the dialog, outside its box, landed on the backdrop.
      onClick={(event) => {
        const box = event.currentTarget.getBoundingClientRect();
        const outside =
          event.clientX < box.left ||
          event.clientX > box.right ||
          event.clientY < box.top ||
          event.clientY > box.bottom;
        if (event.target === event.currentTarget && outside) onClose();
      }}
    >
      {open ? children : null}
    </dialog>
  );
}
