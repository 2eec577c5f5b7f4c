/**
 * Why a field was refused, next to it: by the shared rules before sending
 * (shared/field-rules.ts) or by the server. The control points to the message
 * (aria-describedby) and is marked invalid (aria-invalid).
 */

/** The id of a control's error message. */
export function fieldErrorId(controlId: string): string {
  return `${controlId}-error`;
}

/** What a control carries while its field is refused. */
export function invalidProps(controlId: string, reason: string | undefined) {
  return reason
    ? { "aria-invalid": true as const, "aria-describedby": fieldErrorId(controlId) }
    : {};
}

interface FieldErrorProps {
  controlId: string;
  /** The field's name as its label shows it, e.g. "Email". */
  label: string;
  /** The shared rule's reason, e.g. "is not a valid e-mail address"; nothing is shown without one. */
  reason: string | undefined;
}

export function FieldError({ controlId, label, reason }: FieldErrorProps) {
  if (!reason) return null;
  return (
    <p id={fieldErrorId(controlId)} className="field-error">
      {label} {reason}.
    </p>
  );
}
