/**
 * The signed-in person's own account (any role): their sessions, a new
 * password (every other session ends), and the TOTP second factor: set up,
 * confirmed with a code (which makes the recovery codes), turned off with the
 * password or a code. The set-up answers with the key, its otpauth:// link
 * and that link as a QR code. The routes a person needs to enrol stay open
 * while the owner's requirement blocks everything else (beforeSecondFactor).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { generateSecret, generateURI, verify } from "otplib";
import {
  ACCOUNT_PATHS,
  ACCOUNT_TEXTS,
  accountSchema,
  changePasswordSchema,
  secondFactorOffDoneSchema,
  secondFactorOffSchema,
  totpConfirmedSchema,
  totpConfirmSchema,
  totpSetupSchema,
} from "../../../shared/admin/account.ts";
import { fieldRefusalSchema, messageSchema } from "../../../shared/schemas.ts";
import { SITE } from "../../../shared/site.ts";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { deleteOtherSessions, listUserSessions } from "../../platform/console/sessions.ts";
import { type ConsoleUser, findUserById, setPasswordHash } from "../../platform/console/users.ts";
import { refuse } from "../../platform/refusal.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { newRecoveryCodes } from "./recovery-codes.ts";
import { verifySecondFactor } from "./second-factor.ts";
import { meOf } from "./sign-in-routes.ts";
import {
  disableSecondFactor,
  enableSecondFactor,
  pendingSecret,
  storePendingSecret,
  unusedRecoveryCodes,
} from "./totp.ts";
import { totpQrCodeSvg } from "./totp-qr-code.ts";

/** Routes that check a password or a code: a stolen session must not guess at leisure. */
const GUESS_LIMIT = { rateLimit: { max: 10, timeWindow: "1 minute" } };

/** The signed-in person, as the gate found them for this request. */
const userOf = (request: FastifyRequest) => request.user as ConsoleUser;

/** A refusal tied to one field of the form, so the console shows it there. */
const refuseField = (field: string, message: string) =>
  refuse.badRequest(message, { [field]: message });

export default async function accountRoutes(
  app: FastifyInstance,
  { database: { db } }: AdminAreaOptions,
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    ACCOUNT_PATHS.account,
    {
      schema: { response: { 200: accountSchema } },
      config: { role: "viewer", beforeSecondFactor: true },
    },
    async (request) => {
      const user = userOf(request);
      const [sessions, recoveryCodesLeft, secondFactorRequired] = await Promise.all([
        listUserSessions(db, user.id, app.sessionLimits),
        unusedRecoveryCodes(db, user.id),
        app.secondFactorRequired(),
      ]);
      return {
        secondFactor: user.secondFactor,
        recoveryCodesLeft,
        secondFactorRequired,
        sessions: sessions.map(({ id, ...session }) => ({
          ...session,
          current: id === request.sessionId,
        })),
      };
    },
  );

  routes.put(
    ACCOUNT_PATHS.password,
    {
      schema: {
        body: changePasswordSchema,
        response: { 200: messageSchema, 400: fieldRefusalSchema },
      },
      config: { role: "viewer", ...GUESS_LIMIT },
    },
    async (request) => {
      const user = userOf(request);
      const { currentPassword, newPassword } = request.body;
      if (!(await verifyPassword(user.passwordHash, currentPassword))) {
        await app.auditNoChange(request, "password-change-refused");
        throw refuseField("currentPassword", ACCOUNT_TEXTS.wrongPassword);
      }
      const passwordHash = await hashPassword(newPassword);
      await app.consoleWrite(request, "password-changed", async (trx) => {
        await setPasswordHash(trx, user.id, passwordHash);
        // Whoever else knew the old password is signed out; this session stays.
        await deleteOtherSessions(trx, user.id, request.sessionId as string);
      });
      return { message: ACCOUNT_TEXTS.passwordChanged };
    },
  );

  routes.post(
    ACCOUNT_PATHS.secondFactor,
    {
      schema: { response: { 200: totpSetupSchema } },
      config: { role: "viewer", beforeSecondFactor: true },
    },
    async (request) => {
      const user = userOf(request);
      const secret = generateSecret();
      const unaudited = "a set-up turns nothing on until its code is confirmed, which is recorded";
      await app.consoleWrite(request, { unaudited }, async (trx) => {
        if (!(await storePendingSecret(trx, user.id, secret))) {
          throw refuse.conflict(ACCOUNT_TEXTS.alreadyEnabled);
        }
      });
      const uri = generateURI({ issuer: SITE.firmName, label: user.email, secret });
      return { secret, uri, qrSvg: await totpQrCodeSvg(uri) };
    },
  );

  routes.post(
    ACCOUNT_PATHS.secondFactorConfirm,
    {
      schema: {
        body: totpConfirmSchema,
        response: { 200: totpConfirmedSchema, 400: fieldRefusalSchema },
      },
      config: { role: "viewer", beforeSecondFactor: true, ...GUESS_LIMIT },
    },
    async (request) => {
      const user = userOf(request);
      if (user.secondFactor) throw refuse.conflict(ACCOUNT_TEXTS.alreadyEnabled);
      const secret = await pendingSecret(db, user.id);
      if (!secret) throw refuse.conflict(ACCOUNT_TEXTS.noSetupStarted);
      const { valid } = await verify({ secret, token: request.body.code, epochTolerance: 30 });
      if (!valid) throw refuseField("code", ACCOUNT_TEXTS.wrongCode);
      const { codes, hashes } = newRecoveryCodes();
      await app.consoleWrite(request, "second-factor-enabled", async (trx) => {
        if (!(await enableSecondFactor(trx, user.id, secret, hashes))) {
          throw refuse.conflict(ACCOUNT_TEXTS.noSetupStarted);
        }
      });
      const updated = (await findUserById(db, user.id)) as ConsoleUser;
      return { recoveryCodes: codes, me: await meOf(app, updated) };
    },
  );

  routes.delete(
    ACCOUNT_PATHS.secondFactor,
    {
      schema: {
        body: secondFactorOffSchema,
        response: { 200: secondFactorOffDoneSchema, 400: fieldRefusalSchema },
      },
      config: { role: "viewer", ...GUESS_LIMIT },
    },
    async (request) => {
      const user = userOf(request);
      if (!user.secondFactor) throw refuse.conflict(ACCOUNT_TEXTS.notEnabled);
      if (await app.secondFactorRequired()) {
        throw refuse.conflict(ACCOUNT_TEXTS.requiredByOwner);
      }
      const { confirmation } = request.body;
      const confirmed =
        (await verifyPassword(user.passwordHash, confirmation)) ||
        (await verifySecondFactor(db, user, confirmation.replace(/\s/g, "")));
      if (!confirmed) {
        await app.auditNoChange(request, "second-factor-off-refused");
        throw refuseField("confirmation", ACCOUNT_TEXTS.notConfirmed);
      }
      await app.consoleWrite(request, "second-factor-disabled", (trx) =>
        disableSecondFactor(trx, user.id),
      );
      return { me: await meOf(app, { ...user, totpSecret: null, secondFactor: false }) };
    },
  );
}
