/**
 * The console's one client for /api/admin: JSON in and out, the cross-site
 * token on every write, and one error type carrying the server's message
 * (and, for a refused form, a reason per field). A call names an entry of
 * the route map (shared/admin/console-routes.ts), and the entry's schemas
 * give the types of what the call takes and what it answers.
 */
import type { z } from "zod";
import {
  CONSOLE_ROUTES,
  type ConsoleRoutes,
  type Method,
  type RouteEntry,
  type RouteKey,
} from "../../shared/admin/console-routes.ts";
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

export const NETWORK_FAILURE =
  "The server could not be reached. Check your connection and try again.";

async function send(method: Method, path: string, body?: unknown): Promise<unknown> {
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
  // A 204 answers nothing, which is what its call resolves with.
  if (response.ok) return response.status === 204 ? undefined : data;
  if (response.status === 401 && !data.secondFactor) sessionEnded.dispatchEvent(new Event("ended"));
  throw new ApiError(
    response.status,
    typeof data.message === "string" ? data.message : `The server answered ${response.status}.`,
    (data.fields as Record<string, string> | undefined) ?? {},
    data,
  );
}

// ---- The types a call takes from its entry ----

type Schema = z.ZodType;

/** A body as it is sent: its schema's input, or the FormData of a multipart upload. */
type BodyOf<B> = B extends Schema
  ? z.input<B>
  : B extends (...args: never) => infer S
    ? z.input<S & Schema>
    : FormData;

type PartsOf<R> = (R extends { path: (params: infer P) => string }
  ? { params: P }
  : { params?: never }) &
  (R extends { query: infer Q extends Schema } ? { query: z.input<Q> } : { query?: never }) &
  (R extends { body: infer B } ? { body: BodyOf<B> } : { body?: never });

/** What a call to `K` takes: its path's parameters, its query and its body, each where it has one. */
type CallArgs<K extends RouteKey> = PartsOf<ConsoleRoutes[K]>;

/** What `K` answers on success: its response schema's output, or nothing (204). */
export type Answer<K extends RouteKey> = ConsoleRoutes[K] extends {
  response: infer S extends Schema;
}
  ? z.output<S>
  : undefined;

/** The arguments after a key: left out when the route takes none. */
type ArgsOf<K extends RouteKey> =
  Partial<CallArgs<K>> extends CallArgs<K> ? [args?: CallArgs<K>] : [args: CallArgs<K>];

/** A call's parts as the client reads them, whatever its route. */
interface CallParts {
  params?: unknown;
  query?: Readonly<Record<string, unknown>>;
  body?: unknown;
}

function urlOf(route: RouteEntry, { params, query }: CallParts): string {
  const path = typeof route.path === "string" ? route.path : route.path(params as never);
  return query ? withQuery(path, query) : path;
}

/** The routes that read (GET), which useResource loads. */
export type ReadKey = {
  [K in RouteKey]: ConsoleRoutes[K]["method"] extends "GET" ? K : never;
}[RouteKey];

/** A read of one route, its path and query filled in: what useResource loads and reloads. */
export interface Read<K extends ReadKey> {
  key: K;
  url: string;
}

export function read<K extends ReadKey>(key: K, ...[args]: ArgsOf<K>): Read<K> {
  const parts: CallParts = args ?? {};
  return { key, url: urlOf(CONSOLE_ROUTES[key], parts) };
}

/*
 * The answers are typed, not parsed again: the server's serializer holds each
 * to its route's schema, the one the map names (test/admin/console-routes.test.ts),
 * and a parse here would only cost time and add a failure of its own.
 */
export const api = {
  call<K extends RouteKey>(key: K, ...[args]: ArgsOf<K>): Promise<Answer<K>> {
    const route: RouteEntry = CONSOLE_ROUTES[key];
    // Read as CallParts at once: the union of every route's arguments grows too large to check.
    const parts: CallParts = (args as CallParts | undefined) ?? {};
    return send(route.method, urlOf(route, parts), parts.body) as Promise<Answer<K>>;
  },
  load<K extends ReadKey>({ url }: Read<K>): Promise<Answer<K>> {
    return send("GET", url) as Promise<Answer<K>>;
  },
};

/** A query string from the set values of `params`. */
export function withQuery(path: string, params: Readonly<Record<string, unknown>>) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== "") query.set(key, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
