/** The frame of the screens seen before signing in: the firm's name and one card. */
import type { ReactNode } from "react";
import { SITE } from "../../shared/site.ts";

export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="auth">
      <div className="auth-card">
        <p className="auth-brand">{SITE.firmName}</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
