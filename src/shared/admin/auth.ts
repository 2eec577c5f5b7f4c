/**
 * Sign-in and account payloads, with their field rules and texts: used by the
 * console's forms, its API client and the server's routes alike.
 */
import { z } from "zod";
import { messageSchema } from "../schemas.ts";
import { ROLES } from "./roles.ts";
import type { RouteSlice } from "./route-entry.ts";

/** Every console API path starts here. */
export const ADMIN_API = "/api/admin";

export const AUTH_PATHS = {
  session: `${ADMIN_API}/session`,
  sessions: `${ADMIN_API}/sessions`,
  password: `${ADMIN_API}/password`,
  passwordReset: `${ADMIN_API}/password-reset`,
} as const;

/** Where a link in an invitation or reset e-mail leads; the token follows `#token=`. */
export const SET_PASSWORD_PAGE = "/admin/set-password";

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

export const AUTH_TEXTS = {
  wrongCredentials: "The e-mail address or password is not correct.",
  codeNeeded: "Enter the 6-digit code from your authenticator app, or one of your recovery codes.",
  wrongCode: "That code is not correct. Check your authenticator app and try again.",
  locked: "Too many failed sign-ins. Wait a while and try again.",
  signedOut: "You have been signed out. Please sign in again.",
  roleTooWeak: "Your role does not allow this. Ask an owner of the console.",
  resetSent:
    "If an account exists for that address, we have sent it a link to set a new password. The link works once, for one hour.",
  badLink: "This link has expired or was already used. Ask for a new one.",
  passwordSet: "Your password is set. Sign in with it now.",
  passwordTooShort: `Use at least ${PASSWORD_MIN} characters.`,
  secondFactorFirst:
    "The owner requires a second factor for every account. Set one up under Your account first.",
} as const;

const email = z.email("Enter an e-mail address.").max(254).toLowerCase();

/** A token from an e-mailed link: 32 random bytes, URL-safe base64. */
export const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const signInSchema = z.object({
  email,
  password: z.string().min(1, "Enter your password.").max(PASSWORD_MAX),
  /** A TOTP code or a recovery code, when the account has a second factor. */
  code: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z-]{6,20}$/, "Enter the code as shown.")
    .optional(),
});
export type SignIn = z.infer<typeof signInSchema>;

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN, AUTH_TEXTS.passwordTooShort)
  .max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters.`);

export const setPasswordSchema = z.object({
  token: z.string().regex(LINK_TOKEN, AUTH_TEXTS.badLink),
  password: passwordSchema,
});

export const passwordResetSchema = z.object({ email });

export const meSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  secondFactor: z.boolean(),
  /** The owner requires a second factor, and this account has none yet. */
  mustEnrolSecondFactor: z.boolean(),
  /**
   * Set while no mail server is set, so every message is only written to a
   * folder on the server. The folder's path is told to owners alone, who
   * can change where mail goes; null for everyone else.
   */
  mailNotSent: z.object({ folder: z.string().nullable() }).nullable(),
});
export type Me = z.infer<typeof meSchema>;

/** Who is signed in: answered to anyone, so the console's first call is never an error. */
export const sessionStateSchema = z.object({ me: meSchema.nullable() });

/** A refused sign-in: `secondFactor` asks the client for a code. */
export const signInRefusalSchema = z.object({
  message: z.string(),
  secondFactor: z.boolean().optional(),
});

/**
 * This area's entries of the console's route map (console-routes.ts):
 * Signing in and out (here or everywhere), and a password set through an e-mailed link.
 */
export const AUTH_CONSOLE_ROUTES = {
  "session.read": {
    method: "GET",
    path: AUTH_PATHS.session,
    status: 200,
    response: sessionStateSchema,
  },
  "session.signIn": {
    method: "POST",
    path: AUTH_PATHS.session,
    body: signInSchema,
    status: 200,
    response: meSchema,
  },
  "session.signOut": { method: "DELETE", path: AUTH_PATHS.session, status: 204 },
  "session.signOutEverywhere": { method: "DELETE", path: AUTH_PATHS.sessions, status: 204 },
  "password.requestReset": {
    method: "POST",
    path: AUTH_PATHS.passwordReset,
    body: passwordResetSchema,
    status: 202,
    response: messageSchema,
  },
  "password.set": {
    method: "POST",
    path: AUTH_PATHS.password,
    body: setPasswordSchema,
    status: 200,
    response: messageSchema,
  },
} as const satisfies RouteSlice;
