/**
 * Renders the outcome dialog that components ask for with
 * useAlert() (hooks/use-alert.ts). All share one look: orange accent, title,
 * text and a confirm button.
 */
import { type ReactNode, useCallback, useMemo, useState } from "react";
import { DIALOG } from "../../shared/constants.ts";
import { Modal } from "../components/Modal.tsx";
import { type Alert, AlertContext } from "../hooks/use-alert.ts";

export function AlertProvider({ children }: { children: ReactNode }) {
  const [alert, setAlert] = useState<Alert | null>(null);
  const close = useCallback(() => setAlert(null), []);
  const show = useMemo(() => (next: Alert) => setAlert(next), []);

  return (
    <AlertContext.Provider value={show}>
      {children}
      <Modal
        open={alert !== null}
        onClose={close}
        labelledBy="alert-title"
        describedBy="alert-text"
        className="alert"
        role="alertdialog"
        returnFocusTo={alert?.returnFocusTo}
      >
        {alert ? (
          <>
            <h2 id="alert-title" className="alert__title">
              {alert.title}
            </h2>
            <p id="alert-text" className="alert__text">
              {alert.text}
            </p>
            {/* biome-ignore lint/a11y/noAutofocus: a dialog must move focus to its action */}
            <button type="button" className="button button--accent" onClick={close} autoFocus>
              {DIALOG.confirm}
            </button>
          </>
        ) : null}
      </Modal>
    </AlertContext.Provider>
  );
}
