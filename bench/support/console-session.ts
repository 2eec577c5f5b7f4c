/**
 * Signs in to the console over HTTP as its page does: the XSRF token from
 * /api/v1/xsrf, then POST /api/admin/session. The answer's console_session
 * cookie and the token go with every later request.
 */
import { AUTH_PATHS } from "../../src/shared/admin/auth.ts";
import { TEST_PASSWORD } from "../../test/support/console.ts";
import { clientFor } from "../../test/support/server-process.ts";

export interface ConsoleSession {
  /** Cookie and XSRF header, for requests made elsewhere (a latency sampler). */
  headers: Record<string, string>;
  request(method: "GET" | "POST", path: string, body?: unknown): Promise<Response>;
}

export async function signInOverHttp(
  origin: string,
  email: string,
  password = TEST_PASSWORD,
): Promise<ConsoleSession> {
  const client = await clientFor(origin);
  const answer = await client.post(AUTH_PATHS.session, { email, password });
  const session = answer.headers
    .getSetCookie()
    .map((cookie) => /^console_session=([^;]+)/.exec(cookie)?.[1])
    .find(Boolean);
  if (!answer.ok || !session) {
    throw new Error(`sign-in as ${email} failed: ${answer.status} ${await answer.text()}`);
  }
  const headers = {
    ...client.headers,
    cookie: `${client.headers.cookie}; console_session=${session}`,
  };
  return {
    headers,
    request: (method, path, body) =>
      fetch(`${origin}${path}`, {
        method,
        headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
  };
}
