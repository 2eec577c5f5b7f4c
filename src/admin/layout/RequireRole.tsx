/** Shows a screen only to a strong enough role; the server refuses the rest anyway. */
import type { ReactNode } from "react";
import { AUTH_TEXTS } from "../../shared/admin/auth.ts";
import { hasRole, type Role } from "../../shared/admin/roles.ts";
import { useMe } from "../auth/session.tsx";
import { Notice } from "../components/Notice.tsx";

export function RequireRole({ role, children }: { role: Role; children: ReactNode }) {
  const me = useMe();
  return hasRole(me.role, role) ? children : <Notice tone="error">{AUTH_TEXTS.roleTooWeak}</Notice>;
}
