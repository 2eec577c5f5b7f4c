/**
 * Signing in and out, and setting a password through an e-mailed link. A
 * refused sign-in says the same whether or not the account exists. Each
 * attempt is counted before its password or code is checked, under the keys
 * of sign-in-keys.ts, and a locked key refuses it unchecked
 * (features/people/sign-in-throttle.ts); a browser that signed in before is known by its
 * device cookie (device-cookie.ts).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  AUTH_PATHS,
  AUTH_TEXTS,
  type Me,
  meSchema,
  passwordResetSchema,
  sessionStateSchema,
  setPasswordSchema,
  signInRefusalSchema,
  signInSchema,
} from "../../../shared/admin/auth.ts";
import { fieldRefusalSchema, messageSchema } from "../../../shared/schemas.ts";
import {
  clearSessionCookie,
  SESSION_COOKIE,
  setSessionCookie,
} from "../../platform/console/gate.ts";
import {
  createSession,
  deleteSession,
  deleteUserSessions,
  type SessionLimits,
} from "../../platform/console/sessions.ts";
import { hashToken } from "../../platform/console/tokens.ts";
import {
  type ConsoleUser,
  findUserByEmail,
  findUserById,
  setPasswordHash,
} from "../../platform/console/users.ts";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import type { UserTokenPurpose } from "../../platform/db/schema.ts";
import { refuse } from "../../platform/refusal.ts";
import { afterAnswer } from "./after-answer.ts";
import { deviceCookies } from "./device-cookie.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { verifySecondFactor } from "./second-factor.ts";
import { signInKeys } from "./sign-in-keys.ts";
import {
  admitAttempt,
  clearAccount,
  recordSuccess,
  type ThrottlePolicy,
  takeBackAttempt,
} from "./sign-in-throttle.ts";
import { consumeUserToken, issueUserToken } from "./user-tokens.ts";

export interface AuthRouteOptions {
  database: DatabaseHandle;
  limits: SessionLimits;
  throttle: ThrottlePolicy;
  /** The server's secret; known devices' cookies are signed with a key derived from it. */
  serverSecret: string;
  /** The clock locks are counted by (epoch ms). */
  now: () => number;
}

/** A refused request: the message, and one reason per field when the form was at fault. */
/** An answer with no body. */
export const NO_CONTENT = { 204: z.null() };

export async function meOf(app: FastifyInstance, user: ConsoleUser): Promise<Me> {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    secondFactor: user.secondFactor,
    mustEnrolSecondFactor: !user.secondFactor && (await app.secondFactorRequired()),
    mailNotSent:
      app.mailFolder === null ? null : { folder: user.role === "owner" ? app.mailFolder : null },
  };
}

export default async function authRoutes(
  app: FastifyInstance,
  { database, limits, throttle, serverSecret, now }: AuthRouteOptions,
) {
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const devices = deviceCookies(serverSecret);

  /** A refused sign-in, counted already: only its record remains. */
  function recordRefused(request: FastifyRequest, email: string, reason: string) {
    return app.auditNoChange(request, "sign-in-failed", email, { actor: email, reason });
  }

  routes.post(
    AUTH_PATHS.session,
    {
      schema: {
        body: signInSchema,
        response: { 200: meSchema, 401: signInRefusalSchema, 429: messageSchema },
      },
      config: { role: "public" },
    },
    async (request, reply) => {
      const { email, password, code } = request.body;
      const keys = signInKeys(email, request.ip, devices.deviceOf(request, email), throttle);
      const at = now();
      const admission = await admitAttempt(db, keys, new Date(at));
      if (!admission.admitted) {
        await app.auditNoChange(request, "sign-in-locked", email, { actor: email });
        const seconds = Math.ceil((admission.lockedUntil.getTime() - at) / 1000);
        return reply
          .code(429)
          .header("retry-after", String(Math.max(seconds, 1)))
          .send({ message: AUTH_TEXTS.locked });
      }
      const user = await findUserByEmail(db, email);
      if (!(await verifyPassword(user?.passwordHash ?? null, password)) || !user) {
        await recordRefused(request, email, "password");
        return reply.code(401).send({ message: AUTH_TEXTS.wrongCredentials });
      }
      if (user.secondFactor) {
        if (!code) {
          // The password was right: asking for the code is no failure.
          await takeBackAttempt(db, keys);
          return reply.code(401).send({ message: AUTH_TEXTS.codeNeeded, secondFactor: true });
        }
        if (!(await verifySecondFactor(db, user, code))) {
          await recordRefused(request, email, "second factor");
          return reply.code(401).send({ message: AUTH_TEXTS.wrongCode, secondFactor: true });
        }
      }
      await recordSuccess(db, keys);
      devices.remember(request, reply, email);
      // A new session id at every sign-in: an id planted before it opens nothing.
      const previous = request.cookies[SESSION_COOKIE];
      request.user = user;
      const token = await app.consoleWrite(request, "sign-in", async (trx) => {
        if (previous) await deleteSession(trx, hashToken(previous));
        return createSession(
          trx,
          user.id,
          { ip: request.ip, userAgent: request.headers["user-agent"] ?? "" },
          limits,
        );
      });
      setSessionCookie(request, reply, token);
      return meOf(app, user);
    },
  );

  routes.get(
    AUTH_PATHS.session,
    { schema: { response: { 200: sessionStateSchema } }, config: { role: "public" } },
    async (request) => {
      const session = await app.sessionOf(request);
      return { me: session ? await meOf(app, session.user) : null };
    },
  );

  routes.delete(
    AUTH_PATHS.session,
    { schema: { response: NO_CONTENT }, config: { role: "viewer", beforeSecondFactor: true } },
    async (request, reply) => {
      await app.consoleWrite(request, "sign-out", (trx) =>
        deleteSession(trx, request.sessionId as string),
      );
      clearSessionCookie(request, reply);
      return reply.code(204).send(null);
    },
  );

  routes.delete(
    AUTH_PATHS.sessions,
    { schema: { response: NO_CONTENT }, config: { role: "viewer", beforeSecondFactor: true } },
    async (request, reply) => {
      await app.consoleWrite(request, "sign-out-everywhere", (trx) =>
        deleteUserSessions(trx, (request.user as ConsoleUser).id),
      );
      clearSessionCookie(request, reply);
      return reply.code(204).send(null);
    },
  );

  const afterResetAnswer = afterAnswer(app, "password reset request failed after its answer");

  routes.post(
    AUTH_PATHS.passwordReset,
    {
      schema: { body: passwordResetSchema, response: { 202: messageSchema } },
      config: { role: "public", rateLimit: { max: 5, timeWindow: "15 minutes" } },
      // The address is looked up only once the answer has left: a known
      // address's transaction and mail would otherwise make its answer slower.
      onResponse: async (request, reply) => {
        if (reply.statusCode !== 202) return;
        const { email } = request.body;
        await afterResetAnswer(request, async () => {
          const user = await findUserByEmail(db, email);
          const detail = { actor: email, known: Boolean(user) };
          if (!user) return app.auditNoChange(request, "password-reset-requested", email, detail);
          await app.consoleWrite(request, "password-reset-requested", async (trx, audit) => {
            const token = await issueUserToken(trx, user.id, "reset");
            await app.accountMail.reset(trx, user.email, token);
            audit.subject = email;
            audit.detail = detail;
          });
        });
      },
    },
    async (_request, reply) => reply.code(202).send({ message: AUTH_TEXTS.resetSent }),
  );

  routes.post(
    AUTH_PATHS.password,
    {
      schema: {
        body: setPasswordSchema,
        response: { 200: messageSchema, 400: fieldRefusalSchema },
      },
      config: { role: "public", rateLimit: { max: 10, timeWindow: "15 minutes" } },
    },
    async (request) => {
      const passwordHash = await hashPassword(request.body.password);
      // The link says which it was: an invitation accepted, or a reset.
      const actionOf = (purpose: UserTokenPurpose) =>
        purpose === "invite" ? "invitation-accepted" : "password-reset";
      await app.consoleWrite(request, actionOf, async (trx) => {
        const used = await consumeUserToken(trx, request.body.token);
        const user = used && (await findUserById(trx, used.userId));
        if (!user) throw refuse.badRequest(AUTH_TEXTS.badLink);
        await setPasswordHash(trx, user.id, passwordHash);
        // Whoever held the old password is out now.
        await deleteUserSessions(trx, user.id);
        await clearAccount(trx, user.email);
        request.user = user;
        return used.purpose;
      });
      return { message: AUTH_TEXTS.passwordSet };
    },
  );
}
