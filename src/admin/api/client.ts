/**
 * The console's one client for /api/admin: JSON in and out, the cross-site
 * token on every write, and one error type carrying the server's message
 * (and, for a refused form, a reason per field).
 */
import { API_PATHS, serverPath } from "../../shared/api-paths.ts";
import { XSRF_COOKIE, XSRF_HEADER } from "../../shared/constants.ts";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, string> = {},
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Everyone listening learns when the session has ended (a 401 anywhere). */
export const sessionEnded = new EventTarget();

function readCookie(name: string): string {
  const prefix = `${name}=`;
  const entry = document.cookie.split("; ").find((part) => part.startsWith(prefix));
  return entry ? decodeURIComponent(entry.slice(prefix.length)) : "";
}

/**
 * The server sets the token cookie with the console's page; a page served
 * otherwise (Vite's dev server) or a cleared cookie gets one from the API first.
 */
async function xsrfToken(): Promise<string> {
  const fromCookie = readCookie(XSRF_COOKIE);
  if (fromCookie) return fromCookie;
  await fetch(serverPath(API_PATHS.xsrf), { credentials: "same-origin" }).catch(() => {});
  return readCookie(XSRF_COOKIE);
}

const NETWORK_FAILURE = "The server could not be reached. Check your connection and try again.";

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (method !== "GET") headers[XSRF_HEADER] = await xsrfToken();
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: payload ?? null,
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(0, NETWORK_FAILURE);
  }
  const isJson = (response.headers.get("content-type") ?? "").includes("application/json");
  const data = isJson ? ((await response.json()) as Record<string, unknown>) : {};
  if (response.ok) return data as T;
  if (response.status === 401 && !data.secondFactor) sessionEnded.dispatchEvent(new Event("ended"));
  throw new ApiError(
    response.status,
    typeof data.message === "string" ? data.message : `The server answered ${response.status}.`,
    (data.fields as Record<string, string> | undefined) ?? {},
    data,
  );
}

export const api = {
  get: <T>(path: string) => call<T>("GET", path),
  post: <T>(path: string, body?: unknown) => call<T>("POST", path, body),
  put: <T>(path: string, body?: unknown) => call<T>("PUT", path, body),
  patch: <T>(path: string, body?: unknown) => call<T>("PATCH", path, body),
  delete: <T>(path: string, body?: unknown) => call<T>("DELETE", path, body),
};

/** A query string from the set values of `params`. */
export function withQuery(path: string, params: Record<string, string | number | undefined>) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== "") query.set(key, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
