/**
 * The one way the site and the console call the server (ADR 071): the path
 * resolved against one base, the cookies sent to it, the cross-site request
 * token on every write (ADR 004), a JSON or multipart body, and the answer's
 * body read by its type. A network failure rejects; any HTTP answer
 * resolves, and each app's client says what a status means to its callers.
 *
 * It lives in the site's lowest layer, which the console already imports:
 * src/shared is compiled for the server too, which has no document.
 */
import { API_PATHS } from "../../shared/api-paths.ts";
import { SUCCESS_STATUS, XSRF_COOKIE, XSRF_HEADER } from "../../shared/constants.ts";

export interface FetchCall {
  method?: string;
  /** A FormData goes as it is (a multipart upload); any other value as JSON. */
  body?: unknown;
  /** Headers besides the token and the body's type, such as the public forms' defences. */
  headers?: Record<string, string>;
}

export interface FetchAnswer {
  status: number;
  ok: boolean;
  /** The JSON body; undefined for any other, which is left in `response` for a caller to read. */
  data: unknown;
  response: Response;
}

function readCookie(name: string): string | undefined {
  const prefix = `${name}=`;
  const entry = document.cookie.split("; ").find((part) => part.startsWith(prefix));
  return entry ? decodeURIComponent(entry.slice(prefix.length)) : undefined;
}

/**
 * `base` is where the calls go: the site's configured backend host, or the
 * console's own origin ("/"). It is resolved at each call, against the
 * page's origin, because the site's client is also loaded where pages are
 * rendered, on the server, which has no window.
 */
function urlOf(base: string, path: string): URL {
  const root = new URL(base, window.location.origin);
  if (!root.pathname.endsWith("/")) root.pathname += "/";
  return new URL(path, root);
}

export async function request(
  base: string,
  path: string,
  call: FetchCall = {},
): Promise<FetchAnswer> {
  const { method = "GET", body } = call;
  const headers = { ...call.headers };
  if (method !== "GET") headers[XSRF_HEADER] = await xsrfToken(base);
  const isForm = body instanceof FormData;
  if (body !== undefined && !isForm) headers["Content-Type"] = "application/json";
  const url = urlOf(base, path);
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? null : isForm ? body : JSON.stringify(body),
    // A backend on another host gets the cookies only when asked to include them.
    credentials: url.origin === window.location.origin ? "same-origin" : "include",
  });
  const isJson = (response.headers.get("content-type") ?? "").includes("application/json");
  const ok = response.status >= SUCCESS_STATUS.min && response.status <= SUCCESS_STATUS.max;
  return {
    status: response.status,
    ok,
    data: isJson ? await response.json() : undefined,
    response,
  };
}

/**
 * The server sets the token cookie with every page, but a page served from
 * a cache or a CDN, a page of Vite's dev server or a cleared cookie comes
 * without it; then one GET fetches it first.
 */
export async function xsrfToken(base: string): Promise<string> {
  const fromCookie = readCookie(XSRF_COOKIE);
  if (fromCookie) return fromCookie;
  const answer = await request(base, API_PATHS.xsrf);
  return readCookie(XSRF_COOKIE) ?? (answer.data as { token?: string } | undefined)?.token ?? "";
}
