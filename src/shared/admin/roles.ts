/** The console's roles, weakest first: each may do everything the ones before it may. */
export const ROLES = ["viewer", "editor", "owner"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  viewer: "Viewer: reads inquiries and subscribers",
  editor: "Editor: also edits the site's content",
  owner: "Owner: also manages people and settings",
};

export function hasRole(actual: Role, needed: Role): boolean {
  return ROLES.indexOf(actual) >= ROLES.indexOf(needed);
}
