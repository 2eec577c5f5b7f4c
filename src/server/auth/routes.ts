/**
 * Signing in and out, and setting a password through an e-mailed link. A
 * refused sign-in says the same whether or not the account exists, and
 * failures lock the account's and the address's keys for growing times
 * (db/sign-in-throttle.ts).
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
} from "../../shared/admin/auth.ts";
import type { DatabaseHandle } from "../db/connection.ts";
import {
  createSession,
  deleteSession,
  deleteUserSessions,
  type SessionLimits,
} from "../db/sessions.ts";
import {
  clearFailures,
  lockedUntil,
  recordFailure,
  type ThrottlePolicy,
} from "../db/sign-in-throttle.ts";
import { consumeUserToken, issueUserToken } from "../db/user-tokens.ts";
import { type ConsoleUser, findUserByEmail, findUserById, setPasswordHash } from "../db/users.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from "./plugin.ts";
import { verifySecondFactor } from "./second-factor.ts";
import { hashToken } from "./tokens.ts";

export interface AuthRouteOptions {
  database: DatabaseHandle;
  limits: SessionLimits;
  throttle: ThrottlePolicy;
}

/** One office may share an address: it gets four times an account's free failures. */
const ADDRESS_ALLOWANCE = 4;

const messageSchema = z.object({ message: z.string() });
/** A refused request: the message, and one reason per field when the form was at fault. */
const refusalSchema = messageSchema.extend({ fields: z.record(z.string(), z.string()).optional() });
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
  };
}

export default async function authRoutes(
  app: FastifyInstance,
  { database, limits, throttle }: AuthRouteOptions,
) {
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const addressPolicy = { ...throttle, freeFailures: throttle.freeFailures * ADDRESS_ALLOWANCE };

  async function refuse(request: FastifyRequest, email: string, reason: string) {
    await Promise.all([
      recordFailure(db, `account:${email}`, throttle),
      recordFailure(db, `address:${request.ip}`, addressPolicy),
      app.audit(request, "sign-in-failed", email, { actor: email, reason }),
    ]);
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
      const until = await lockedUntil(db, [`account:${email}`, `address:${request.ip}`]);
      if (until) {
        await app.audit(request, "sign-in-locked", email, { actor: email });
        const seconds = Math.ceil((until.getTime() - Date.now()) / 1000);
        return reply
          .code(429)
          .header("retry-after", String(seconds))
          .send({ message: AUTH_TEXTS.locked });
      }
      const user = await findUserByEmail(db, email);
      if (!(await verifyPassword(user?.passwordHash ?? null, password)) || !user) {
        await refuse(request, email, "password");
        return reply.code(401).send({ message: AUTH_TEXTS.wrongCredentials });
      }
      if (user.secondFactor) {
        if (!code)
          return reply.code(401).send({ message: AUTH_TEXTS.codeNeeded, secondFactor: true });
        if (!(await verifySecondFactor(db, user, code))) {
          await refuse(request, email, "second factor");
          return reply.code(401).send({ message: AUTH_TEXTS.wrongCode, secondFactor: true });
        }
      }
      await clearFailures(db, `account:${email}`);
      // A new session id at every sign-in: an id planted before it opens nothing.
      const previous = request.cookies[SESSION_COOKIE];
      if (previous) await deleteSession(db, hashToken(previous));
      const token = await createSession(
        db,
        user.id,
        { ip: request.ip, userAgent: request.headers["user-agent"] ?? "" },
        limits,
      );
      setSessionCookie(request, reply, token);
      request.user = user;
      await app.audit(request, "sign-in");
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
      await deleteSession(db, request.sessionId as string);
      clearSessionCookie(request, reply);
      await app.audit(request, "sign-out");
      return reply.code(204).send(null);
    },
  );

  routes.delete(
    AUTH_PATHS.sessions,
    { schema: { response: NO_CONTENT }, config: { role: "viewer", beforeSecondFactor: true } },
    async (request, reply) => {
      await deleteUserSessions(db, (request.user as ConsoleUser).id);
      clearSessionCookie(request, reply);
      await app.audit(request, "sign-out-everywhere");
      return reply.code(204).send(null);
    },
  );

  routes.post(
    AUTH_PATHS.passwordReset,
    {
      schema: { body: passwordResetSchema, response: { 202: messageSchema } },
      config: { role: "public", rateLimit: { max: 5, timeWindow: "15 minutes" } },
    },
    async (request, reply) => {
      const user = await findUserByEmail(db, request.body.email);
      if (user) {
        await app.withOutbox(async (trx) => {
          const token = await issueUserToken(trx, user.id, "reset");
          await app.mail.accountLink(trx, "reset", user.email, token);
        });
      }
      await app.audit(request, "password-reset-requested", request.body.email, {
        actor: request.body.email,
        known: Boolean(user),
      });
      return reply.code(202).send({ message: AUTH_TEXTS.resetSent });
    },
  );

  routes.post(
    AUTH_PATHS.password,
    {
      schema: { body: setPasswordSchema, response: { 200: messageSchema, 400: refusalSchema } },
      config: { role: "public", rateLimit: { max: 10, timeWindow: "15 minutes" } },
    },
    async (request, reply) => {
      const passwordHash = await hashPassword(request.body.password);
      const used = await consumeUserToken(db, request.body.token);
      const user = used && (await findUserById(db, used.userId));
      if (!user) return reply.code(400).send({ message: AUTH_TEXTS.badLink });
      await setPasswordHash(db, user.id, passwordHash);
      // Whoever held the old password is out now.
      await deleteUserSessions(db, user.id);
      await clearFailures(db, `account:${user.email}`);
      request.user = user;
      await app.audit(
        request,
        used.purpose === "invite" ? "invitation-accepted" : "password-reset",
      );
      return { message: AUTH_TEXTS.passwordSet };
    },
  );
}
