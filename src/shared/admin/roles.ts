import { capitalised } from "../sentence.ts";

/** The console's roles, weakest first: each may do everything the ones before it may. */
export const ROLES = ["viewer", "editor", "owner"] as const;
export type Role = (typeof ROLES)[number];

/** What each role may do beyond the roles before it, said of the person who holds it. */
const ROLE_ADDS: Record<Role, string> = {
  viewer: "reads inquiries and subscribers",
  editor: "edits the site's content",
  owner: "manages people and settings",
};

/** Beside a role in the console, where the roles are seen in order: "Editor: also edits…". */
export const ROLE_LABELS = Object.fromEntries(
  ROLES.map((role, rank) => [
    role,
    `${capitalised(role)}: ${rank > 0 ? "also " : ""}${ROLE_ADDS[role]}`,
  ]),
) as Record<Role, string>;

/**
 * Everything a role may do, in one sentence that stands alone (as in an
 * invitation, read before the console is ever seen): "An editor reads
 * inquiries and subscribers, and edits the site's content."
 */
export function roleSentence(role: Role): string {
  const abilities = ROLES.slice(0, ROLES.indexOf(role) + 1).map((each) => ROLE_ADDS[each]);
  const last = abilities.pop();
  const listed = abilities.length > 0 ? `${abilities.join(", ")}, and ${last}` : last;
  return `${capitalised(aRole(role))} ${listed}.`;
}

/** The role with its article, to run on in a sentence: "a viewer", "an editor". */
export function aRole(role: Role): string {
  return `${/^[aeiou]/.test(role) ? "an" : "a"} ${role}`;
}

export function hasRole(actual: Role, needed: Role): boolean {
  return ROLES.indexOf(actual) >= ROLES.indexOf(needed);
}
