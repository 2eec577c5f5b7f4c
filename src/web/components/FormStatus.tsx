/**
 * The outcome of a form posted without JavaScript, at the top of the form:
 * the dialogs' texts (DIALOG) as a region of the page, not a dialog (a page
 * without script cannot open one). A success is a status, anything else an
 * alert.
 */

export interface FormStatusProps {
  ok: boolean;
  title: string;
  text: string;
  /** What the visitor can do about a failure (e.g. the server's reason). */
  detail?: string | undefined;
}

export function FormStatus({ ok, title, text, detail }: FormStatusProps) {
  return (
    <div
      className={`form-status form-status--${ok ? "ok" : "failed"}`}
      role={ok ? "status" : "alert"}
    >
      <p className="form-status__title">{title}</p>
      <p className="form-status__text">{text}</p>
      {detail ? <p className="form-status__detail">{detail}</p> : null}
    </div>
  );
}
