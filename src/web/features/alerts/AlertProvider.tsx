/**
 * The outcome dialogs of spec §8: any component can show one with useAlert().
 * All share one look: orange accent, title, text and a confirm button.
 */
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";
import { DIALOG } from "../../../shared/constants.ts";
import { Modal } from "../../components/Modal.tsx";

export interface Alert {
  title: string;
  text: string;
  /** The control to focus when the dialog closes (e.g. a submit button that was disabled). */
  returnFocusTo?: HTMLElement | null;
}

const AlertContext = createContext<(alert: Alert) => void>(() => {});

export function useAlert() {
  return useContext(AlertContext);
}

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
