/**
 * The people area's payloads: who has an account, inviting someone, changing
 * a role, and the owner's "second factor for everyone" setting. Used by the
 * console's forms, its client and the server's routes alike.
 */
import { z } from "zod";
import { idParamsSchema } from "../row-id.ts";
import { messageSchema, ruledText } from "../schemas.ts";
import { ADMIN_API } from "./auth.ts";
import { ROLES } from "./roles.ts";
import type { RecordId, RouteSlice } from "./route-entry.ts";

export const PEOPLE_PATHS = {
  people: `${ADMIN_API}/people`,
  person: `${ADMIN_API}/people/:id`,
  invitation: `${ADMIN_API}/people/:id/invitation`,
  secondFactorSetting: `${ADMIN_API}/settings/second-factor`,
} as const;

export const personPath = (id: number) => `${PEOPLE_PATHS.people}/${id}`;
export const invitationPath = (id: number) => `${personPath(id)}/invitation`;

export const PEOPLE_TEXTS = {
  alreadyInvited:
    "There is already an account for that address. Re-send its invitation from the list instead.",
  notFound: "That person no longer has an account. Reload the list.",
  lastOwner:
    "The console needs at least one owner who has set a password. Make someone else an owner first.",
  alreadyAccepted:
    "This person has already set a password. If they forgot it, they can use “Forgot your password?” when signing in.",
  invitationSent: "The invitation is on its way. Its link works once, for seven days.",
  ownSecondFactorFirst:
    "Set up a second factor for your own account first (under Your account), so you keep access.",
} as const;

export const personSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  secondFactor: z.boolean(),
  /** Invited, and has not set a password yet. */
  invited: z.boolean(),
  /** ISO time of the last sign-in on record, or null. */
  lastSignInAt: z.string().nullable(),
});
export type Person = z.infer<typeof personSchema>;

export const peopleListSchema = z.object({ people: z.array(personSchema) });

export const inviteSchema = z.object({
  email: z.email("Enter an e-mail address.").max(254).toLowerCase(),
  name: ruledText("text")
    .trim()
    .min(1, "Enter the person’s name.")
    .max(120, "Use at most 120 characters."),
  role: z.enum(ROLES, "Choose a role."),
});
export type Invite = z.infer<typeof inviteSchema>;

export const roleChangeSchema = z.object({ role: z.enum(ROLES, "Choose a role.") });

export const personParamsSchema = idParamsSchema;

export const secondFactorSettingSchema = z.object({ required: z.boolean() });
export type SecondFactorSetting = z.infer<typeof secondFactorSettingSchema>;

/**
 * This area's entries of the console's route map (console-routes.ts):
 * The people with accounts, invitations and roles, and the owner's second-factor setting.
 */
export const PEOPLE_CONSOLE_ROUTES = {
  "people.list": {
    method: "GET",
    path: PEOPLE_PATHS.people,
    status: 200,
    response: peopleListSchema,
  },
  "people.invite": {
    method: "POST",
    path: PEOPLE_PATHS.people,
    body: inviteSchema,
    status: 201,
    response: personSchema,
  },
  "people.resendInvitation": {
    method: "POST",
    path: ({ id }: RecordId) => invitationPath(id),
    status: 202,
    response: messageSchema,
  },
  "people.changeRole": {
    method: "PATCH",
    path: ({ id }: RecordId) => personPath(id),
    body: roleChangeSchema,
    status: 200,
    response: personSchema,
  },
  "people.remove": {
    method: "DELETE",
    path: ({ id }: RecordId) => personPath(id),
    status: 204,
  },
  "settings.secondFactor.read": {
    method: "GET",
    path: PEOPLE_PATHS.secondFactorSetting,
    status: 200,
    response: secondFactorSettingSchema,
  },
  "settings.secondFactor.save": {
    method: "PUT",
    path: PEOPLE_PATHS.secondFactorSetting,
    body: secondFactorSettingSchema,
    status: 200,
    response: secondFactorSettingSchema,
  },
} as const satisfies RouteSlice;
