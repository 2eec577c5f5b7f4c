/**
 * A form's submit button that, while its request is in flight, is
 * disabled and shows a spinner instead of its label.
 */
import type { ReactNode, Ref } from "react";
import { Spinner } from "./Spinner.tsx";

interface SubmitButtonProps {
  busy: boolean;
  busyLabel: string;
  className: string;
  children: ReactNode;
  ref: Ref<HTMLButtonElement>;
}

export function SubmitButton({ busy, busyLabel, className, children, ref }: SubmitButtonProps) {
  return (
    <button
      ref={ref}
      type="submit"
      className={`button button--accent ${className}`}
      disabled={busy}
      aria-busy={busy}
    >
      {busy ? <Spinner label={busyLabel} /> : children}
    </button>
  );
}
