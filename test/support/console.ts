/**
 * Console accounts for API tests: made straight in the database (as the
 * invitation flow would leave them), then signed in through the real route.
 */
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { hashPassword } from "../../src/server/features/people/index.ts";
import { ensureUser, setPasswordHash } from "../../src/server/platform/console/users.ts";
import type { DatabaseHandle } from "../../src/server/platform/db/connection.ts";
import { AUTH_PATHS } from "../../src/shared/admin/auth.ts";
import type { Role } from "../../src/shared/admin/roles.ts";
import { openSession } from "./app.ts";

export const TEST_PASSWORD = "correct horse battery staple";

export async function createAccount(
  database: DatabaseHandle,
  role: Role,
  email = `${role}@firm.example`,
  password = TEST_PASSWORD,
) {
  const { user } = await ensureUser(database.db, { email, role, name: `The ${role}` });
  await setPasswordHash(database.db, user.id, await hashPassword(password));
  return user;
}

/** A signed-in browser, as far as the server can tell: its cookies and its cross-site token. */
export interface ConsoleClient {
  cookie: string;
  token: string;
  request(method: string, url: string, payload?: unknown): Promise<LightMyRequestResponse>;
}

export function sessionCookieOf(response: LightMyRequestResponse): string | undefined {
  return response.cookies.find((c) => c.name === "console_session")?.value;
}

export async function signIn(
  app: FastifyInstance,
  email: string,
  password = TEST_PASSWORD,
): Promise<ConsoleClient> {
  const xsrf = await openSession(app);
  const response = await app.inject({
    method: "POST",
    url: AUTH_PATHS.session,
    headers: { cookie: xsrf.cookie, "x-xsrf-token": xsrf.token },
    payload: { email, password },
  });
  const session = sessionCookieOf(response);
  if (response.statusCode !== 200 || !session) {
    throw new Error(`sign-in as ${email} failed: ${response.statusCode} ${response.body}`);
  }
  return clientWith(app, `${xsrf.cookie}; console_session=${session}`, xsrf.token);
}

/** A client with the given cookies; an anonymous one has only the cross-site token. */
export function clientWith(app: FastifyInstance, cookie: string, token: string): ConsoleClient {
  return {
    cookie,
    token,
    request: (method, url, payload) =>
      app.inject({
        method: method as "GET",
        url,
        headers: { cookie, "x-xsrf-token": token },
        ...(payload === undefined ? {} : { payload: payload as object }),
      }),
  };
}

export async function anonymous(app: FastifyInstance): Promise<ConsoleClient> {
  const xsrf = await openSession(app);
  return clientWith(app, xsrf.cookie, xsrf.token);
}
