/**
 * The signed-in person's own account: its sessions, changing the password,
 * and setting up or turning off the second factor (TOTP with recovery codes).
 */
import { z } from "zod";
import { messageSchema } from "../schemas.ts";
import { ADMIN_API, meSchema, PASSWORD_MAX, passwordSchema } from "./auth.ts";
import type { RouteSlice } from "./route-entry.ts";

export const ACCOUNT_PATHS = {
  account: `${ADMIN_API}/account`,
  password: `${ADMIN_API}/account/password`,
  secondFactor: `${ADMIN_API}/account/second-factor`,
  secondFactorConfirm: `${ADMIN_API}/account/second-factor/confirm`,
} as const;

export const RECOVERY_CODE_COUNT = 10;

export const ACCOUNT_TEXTS = {
  wrongPassword: "Your current password is not correct.",
  samePassword: "Choose a password different from the current one.",
  passwordChanged: "Your password is changed. Every other session has been signed out.",
  alreadyEnabled: "Your second factor is already on. Turn it off first to set up a new one.",
  noSetupStarted: "Start the set-up again: no secret is waiting to be confirmed.",
  wrongCode: "That code is not correct. Check the time on your phone and try the newest code.",
  requiredByOwner:
    "The owner requires a second factor for every account, so yours cannot be turned off.",
  notConfirmed: "That is neither your password nor a current code.",
  notEnabled: "Your account has no second factor to turn off.",
} as const;

export const sessionViewSchema = z.object({
  current: z.boolean(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  ip: z.string(),
  userAgent: z.string(),
});
export type SessionView = z.infer<typeof sessionViewSchema>;

export const accountSchema = z.object({
  secondFactor: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  secondFactorRequired: z.boolean(),
  sessions: z.array(sessionViewSchema),
});
export type Account = z.infer<typeof accountSchema>;

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, "Enter your current password.").max(PASSWORD_MAX),
    newPassword: passwordSchema,
  })
  .refine((values) => values.newPassword !== values.currentPassword, {
    path: ["newPassword"],
    message: ACCOUNT_TEXTS.samePassword,
  });
export type ChangePassword = z.infer<typeof changePasswordSchema>;

/**
 * What an authenticator app needs: the secret as text to type in, as an
 * otpauth:// link, and that link as a QR code (SVG markup, drawn by the server).
 */
export const totpSetupSchema = z.object({ secret: z.string(), uri: z.string(), qrSvg: z.string() });
export type TotpSetup = z.infer<typeof totpSetupSchema>;

export const totpConfirmSchema = z.object({
  // People type "123 456" as the app shows it.
  code: z
    .string()
    .transform((code) => code.replace(/\s/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, "Enter the 6-digit code your app shows.")),
});
export type TotpConfirm = z.input<typeof totpConfirmSchema>;

/** The recovery codes are shown this once; only their hashes are kept. */
export const totpConfirmedSchema = z.object({
  recoveryCodes: z.array(z.string()),
  me: meSchema,
});
export type TotpConfirmed = z.infer<typeof totpConfirmedSchema>;

export const secondFactorOffSchema = z.object({
  confirmation: z.string().min(1, "Enter your password or a current code.").max(PASSWORD_MAX),
});
export type SecondFactorOff = z.infer<typeof secondFactorOffSchema>;

export const secondFactorOffDoneSchema = z.object({ me: meSchema });

/**
 * This area's entries of the console's route map (console-routes.ts):
 * One's own account: reading it, the password, and the second factor set up, confirmed or turned off.
 */
export const ACCOUNT_CONSOLE_ROUTES = {
  "account.read": {
    method: "GET",
    path: ACCOUNT_PATHS.account,
    status: 200,
    response: accountSchema,
  },
  "account.changePassword": {
    method: "PUT",
    path: ACCOUNT_PATHS.password,
    body: changePasswordSchema,
    status: 200,
    response: messageSchema,
  },
  "account.startSecondFactor": {
    method: "POST",
    path: ACCOUNT_PATHS.secondFactor,
    status: 200,
    response: totpSetupSchema,
  },
  "account.confirmSecondFactor": {
    method: "POST",
    path: ACCOUNT_PATHS.secondFactorConfirm,
    body: totpConfirmSchema,
    status: 200,
    response: totpConfirmedSchema,
  },
  "account.turnOffSecondFactor": {
    method: "DELETE",
    path: ACCOUNT_PATHS.secondFactor,
    body: secondFactorOffSchema,
    status: 200,
    response: secondFactorOffDoneSchema,
  },
} as const satisfies RouteSlice;
