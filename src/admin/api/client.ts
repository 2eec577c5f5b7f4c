/**
 * The console's one client for /api/admin, on the fetch core the site shares
 * (web/api/fetch-core.ts: JSON or FormData in, the cross-site token on every
 * write), with one error type carrying the server's message
 * (and, for a refused form, a reason per field). A call names an entry of
 * the route map (shared/admin/console-routes.ts), and the entry's schemas
 * give the types of what the call takes and what it answers.
 */
import type { z } from "zod";
import {
  CONSOLE_ROUTES,
  type ConsoleRoutes,
  type RouteKey,
} from "../../shared/admin/console-routes.ts";
import type { Method, RouteEntry } from "../../shared/admin/route-entry.ts";
import type { FetchAnswer, FetchCall } from "../../web/api/fetch-core.ts";
import * as fetchCore from "../../web/api/fetch-core.ts";

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

/** The console's calls go to its own origin, where its session cookie is. */
const BASE = "/";

export const NETWORK_FAILURE =
  "The server could not be reached. Check your connection and try again.";

/** The server's answer, or an ApiError when it could not be reached. */
async function answerTo(path: string, call: FetchCall = {}): Promise<FetchAnswer> {
  try {
    return await fetchCore.request(BASE, path, call);
  } catch {
    throw new ApiError(0, NETWORK_FAILURE);
  }
}

/** A refusal as an ApiError; a 401 also tells everyone listening that the session ended. */
function refusalOf({ status, data }: FetchAnswer): ApiError {
  const refusal = (data ?? {}) as Record<string, unknown>;
  if (status === 401 && !refusal.secondFactor) sessionEnded.dispatchEvent(new Event("ended"));
  return new ApiError(
    status,
    typeof refusal.message === "string" ? refusal.message : `The server answered ${status}.`,
    (refusal.fields as Record<string, string> | undefined) ?? {},
    refusal,
  );
}

async function send(method: Method, path: string, body?: unknown): Promise<unknown> {
  const answer = await answerTo(path, { method, body });
  if (!answer.ok) throw refusalOf(answer);
  // A 204 answers nothing, which is what its call resolves with.
  return answer.status === 204 ? undefined : (answer.data ?? {});
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
 * to its route's schema, the one the map names (test/platform/console/console-routes.test.ts),
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
  /** A route that answers plain text, not JSON: the newsletter's plain-text preview. */
  async text(path: string): Promise<string> {
    const answer = await answerTo(path);
    if (!answer.ok) throw refusalOf(answer);
    return answer.response.text();
  },
};

/** A query string from the set values of `params`; a list is its key once for each value. */
export function withQuery(path: string, params: Readonly<Record<string, unknown>>) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const each of Array.isArray(value) ? value : [value]) {
      if (each !== undefined && each !== "") query.append(key, String(each));
    }
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
