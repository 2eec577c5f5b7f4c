/** A message after an action: success is polite (status), failure assertive (alert). */
import type { ReactNode } from "react";

export function Notice({ tone, children }: { tone: "success" | "error"; children: ReactNode }) {
  return (
    <p className={`notice notice-${tone}`} role={tone === "error" ? "alert" : "status"}>
      {children}
    </p>
  );
}
