/** The console's areas, in the navigation's order, with the role each needs. */
import { AUDIENCE_LABEL, AUDIENCE_SCREEN } from "../../shared/admin/audience.ts";
import { BACKUPS_LABEL, BACKUPS_SCREEN } from "../../shared/admin/backups.ts";
import type { Role } from "../../shared/admin/roles.ts";
import { WEBHOOKS_LABEL, WEBHOOKS_SCREEN } from "../../shared/admin/webhooks.ts";

export interface Area {
  path: string;
  label: string;
  role: Role;
}

export const AREAS: Area[] = [
  { path: "inquiries", label: "Inquiries", role: "viewer" },
  { path: AUDIENCE_SCREEN, label: AUDIENCE_LABEL, role: "viewer" },
  { path: "subscribers", label: "Subscribers", role: "viewer" },
  { path: "suppressions", label: "Suppressed", role: "viewer" },
  { path: "newsletter", label: "Newsletter", role: "viewer" },
  { path: "content", label: "Content", role: "editor" },
  { path: "people", label: "People", role: "owner" },
  { path: "mail", label: "Mail settings", role: "owner" },
  { path: "health", label: "Sending health", role: "owner" },
  { path: WEBHOOKS_SCREEN, label: WEBHOOKS_LABEL, role: "owner" },
  { path: BACKUPS_SCREEN, label: BACKUPS_LABEL, role: "owner" },
  { path: "audit", label: "Audit log", role: "owner" },
  { path: "account", label: "Your account", role: "viewer" },
];
