/**
 * The console's gate. Every route under /api/admin must declare the role it
 * needs (`config: { role }`), or the server refuses to start; this hook then
 * answers 401 without a live session and 403 for a weaker role, before the
 * route's body is even parsed. The cross-site token check (platform/security/xsrf.ts)
 * runs before it on every write.
 */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
} from "fastify";
import fp from "fastify-plugin";
import { ADMIN_API, AUTH_TEXTS } from "../../../shared/admin/auth.ts";
import { hasRole, type Role } from "../../../shared/admin/roles.ts";
import type { DatabaseHandle } from "../db/connection.ts";
import { withHookFirst } from "../http/route-hooks.ts";
import { findSession, type OpenSession, type SessionLimits } from "./sessions.ts";
import type { ConsoleUser } from "./users.ts";

/** "public" routes are open to anyone (signing in, setting a password). */
export type RouteAccess = Role | "public";

export const SESSION_COOKIE = "console_session";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Who may call a console route; required on every /api/admin route. */
    role?: RouteAccess;
    /** Open to a signed-in person who must still set up a second factor. */
    beforeSecondFactor?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in person on a console route, or null. */
    user: ConsoleUser | null;
    sessionId: string | null;
  }
  interface FastifyInstance {
    /** Every console route and the role it declared, for the authorisation test. */
    consoleRoutes: ConsoleRoute[];
    sessionLimits: SessionLimits;
    /** The live session a request's cookie opens, if any (for the public session check). */
    sessionOf(request: FastifyRequest): Promise<OpenSession | undefined>;
    /** Whether the owner requires a second factor of everyone (site_meta). */
    secondFactorRequired(): Promise<boolean>;
  }
}

export interface ConsoleRoute {
  method: string;
  url: string;
  role: RouteAccess;
}

export interface ConsoleAuthOptions {
  database: DatabaseHandle;
  limits: SessionLimits;
}

export const SECOND_FACTOR_SETTING = "console.require-second-factor";

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: ADMIN_API,
    httpOnly: true,
    sameSite: "strict",
    secure: request.protocol === "https",
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, {
    path: ADMIN_API,
    httpOnly: true,
    sameSite: "strict",
    secure: request.protocol === "https",
  });
}

export default fp(
  async function consoleAuth(app: FastifyInstance, { database, limits }: ConsoleAuthOptions) {
    const { db } = database;
    app.decorate("consoleRoutes", [] as ConsoleRoute[]);
    app.decorate("sessionLimits", limits);
    app.decorate("secondFactorRequired", async () => {
      const row = await db
        .selectFrom("site_meta")
        .select("value")
        .where("key", "=", SECOND_FACTOR_SETTING)
        .executeTakeFirst();
      return row?.value === "true";
    });
    app.decorate("sessionOf", async (request: FastifyRequest) => {
      const token = request.cookies[SESSION_COOKIE];
      return token ? findSession(db, token, limits) : undefined;
    });
    app.decorateRequest("user", null);
    app.decorateRequest("sessionId", null);

    const gate: onRequestAsyncHookHandler = async (request, reply) => {
      const needed = request.routeOptions.config.role;
      if (!needed) return;
      reply.header("cache-control", "no-store");
      if (needed === "public") return;
      const session = await app.sessionOf(request);
      if (!session) {
        if (request.cookies[SESSION_COOKIE]) clearSessionCookie(request, reply);
        throw app.httpErrors.unauthorized(AUTH_TEXTS.signedOut);
      }
      request.user = session.user;
      request.sessionId = session.id;
      if (!hasRole(session.user.role, needed))
        throw app.httpErrors.forbidden(AUTH_TEXTS.roleTooWeak);
      if (
        !session.user.secondFactor &&
        !request.routeOptions.config.beforeSecondFactor &&
        (await app.secondFactorRequired())
      ) {
        throw app.httpErrors.forbidden(AUTH_TEXTS.secondFactorFirst);
      }
    };

    // The gate goes on the routes that declare a role, first among their
    // own hooks (before their write limits): the public pages and API do
    // not pass through it.
    app.addHook("onRoute", (route) => {
      const role = route.config?.role;
      const methods = [route.method].flat();
      if (route.url.startsWith(ADMIN_API)) {
        if (!role) throw new Error(`${methods.join(",")} ${route.url} declares no role`);
        for (const method of methods) {
          if (method !== "HEAD") app.consoleRoutes.push({ method, url: route.url, role });
        }
      }
      if (!role) return;
      route.onRequest = withHookFirst(gate, route.onRequest);
    });
  },
  { name: "console-auth", dependencies: ["xsrf"] },
);
