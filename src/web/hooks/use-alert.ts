/**
 * The outcome dialogs (their texts in shared/constants.ts): any component can show one with useAlert().
 * The dialog itself is rendered once for the whole site by app/AlertProvider.tsx.
 */
import { createContext, useContext } from "react";

export interface Alert {
  title: string;
  text: string;
  /** The control to focus when the dialog closes (e.g. a submit button that was disabled). */
  returnFocusTo?: HTMLElement | null;
}

export const AlertContext = createContext<(alert: Alert) => void>(() => {});

export function useAlert() {
  return useContext(AlertContext);
}
