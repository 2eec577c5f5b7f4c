/**
 * The route map (src/shared/admin/console-routes.ts) holds to the server.
 * Each entry is a route the real app registers, at the method and path it
 * names, and names the very schemas that route declares: the answer of a
 * success (and that status alone), the query and the body. Every console
 * route the app registers is in the map, or below among those the console
 * reaches without its client. Every console write goes through
 * app.consoleWrite (platform/console/write.ts): its handler opens no
 * transaction, writes no audit entry and builds no HTTP error of its own.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifySchema, FastifyServerOptions, RouteOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AUDIENCE_PATHS } from "../../../src/shared/admin/audience.ts";
import { ADMIN_API } from "../../../src/shared/admin/auth.ts";
import { BACKUP_ARCHIVE_PATH } from "../../../src/shared/admin/backups.ts";
import { CONSOLE_ROUTES, type RouteKey } from "../../../src/shared/admin/console-routes.ts";
import {
  CONTENT_LISTS,
  type ContentList,
  LIST_SPECS,
  type ListSpec,
} from "../../../src/shared/admin/content.ts";
import { DRAFT_PATHS } from "../../../src/shared/admin/content-drafts.ts";
import { INQUIRY_PATHS } from "../../../src/shared/admin/inquiries.ts";
import { NEWSLETTER_PATHS } from "../../../src/shared/admin/newsletter.ts";
import { MULTIPART, type RouteEntry } from "../../../src/shared/admin/route-entry.ts";
import { IMPORT_ROUTES } from "../../../src/shared/admin/subscriber-import.ts";
import { SUBSCRIBER_ROUTES } from "../../../src/shared/admin/subscribers.ts";
import { SUPPRESSION_ROUTES } from "../../../src/shared/admin/suppressions.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";

/** Every route the app registers, as Fastify's onRoute hook hands it over, schemas and all. */
const registered = vi.hoisted((): RouteOptions[] => []);

// The app makes its own Fastify instance; this hooks onRoute into it before any route is added.
vi.mock("fastify", async (importOriginal) => {
  const actual = await importOriginal<typeof import("fastify")>();
  const fastify = (options?: FastifyServerOptions) => {
    const app = actual.default(options);
    app.addHook("onRoute", (route) => {
      registered.push(route);
    });
    return app;
  };
  return { ...actual, default: fastify, fastify };
});

/** Console routes the console app does not call through its client, each with how it reaches them. */
const NOT_CALLED = [
  { method: "GET", url: AUDIENCE_PATHS.export, why: "a CSV download each Audience table links to" },
  { method: "GET", url: INQUIRY_PATHS.export, why: "a CSV download the inbox links to" },
  { method: "GET", url: SUBSCRIBER_ROUTES.export, why: "a CSV download the list links to" },
  { method: "GET", url: SUPPRESSION_ROUTES.export, why: "a CSV download the list links to" },
  { method: "GET", url: BACKUP_ARCHIVE_PATH, why: "an archive download each backup links to" },
  {
    method: "GET",
    url: NEWSLETTER_PATHS.emailPreview(":id"),
    why: "an HTML page the preview shows in a frame",
  },
  {
    method: "GET",
    url: NEWSLETTER_PATHS.webPreview(":id"),
    why: "an HTML page the preview shows in a frame",
  },
  {
    method: "GET",
    url: NEWSLETTER_PATHS.textPreview(":id"),
    why: "plain text, which PlainTextPreview reads with the client's api.text",
  },
];

/** Console writes (by method) that store nothing, each with what it does instead. */
const STORING_NOTHING = [
  {
    method: "POST",
    url: IMPORT_ROUTES.preview,
    why: "reads the file it is sent and keeps none of it",
  },
  {
    method: "POST",
    url: IMPORT_ROUTES.dryRun,
    why: "judges the file against the list and keeps none of it",
  },
  ...CONTENT_LISTS.map((list) => ({
    method: "POST",
    url: DRAFT_PATHS.preview(list, ":id"),
    why: "signs a preview link and sets its cookie; the database is not written",
  })),
];

/** What a console write's own code must not do: the helper does each, once, for all of them. */
const BY_HAND = [
  { what: "opens a transaction", pattern: /\binTransaction\(|\.withOutbox\(/ },
  { what: "writes an audit entry", pattern: /\.audit\(/ },
  { what: "builds an HTTP error", pattern: /\.httpErrors\./ },
];

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The server's modules, as the source test reads them. */
function serverModules(dir = join(import.meta.dirname, "../../../src/server")): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((item) => {
    const path = join(dir, item.name);
    if (item.isDirectory()) return serverModules(path);
    return /\.tsx?$/.test(item.name) && !item.name.endsWith(".test.ts") ? [path] : [];
  });
}

interface Served {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
}

/** One call of an entry as the server registers it: ids left as parameters, per content list. */
interface Instance {
  key: RouteKey;
  entry: RouteEntry;
  url: string;
  list: ContentList;
}

const ENTRIES = Object.entries(CONSOLE_ROUTES) as [RouteKey, RouteEntry][];

function instancesOf(key: RouteKey, entry: RouteEntry): Instance[] {
  const byUrl = new Map<string, Instance>();
  for (const list of CONTENT_LISTS) {
    const url =
      typeof entry.path === "string"
        ? entry.path
        : (entry.path as (params: Record<string, string>) => string)({
            list,
            id: ":id",
            version: ":version",
          });
    if (!byUrl.has(url)) byUrl.set(url, { key, entry, url, list });
  }
  return [...byUrl.values()];
}

const INSTANCES = ENTRIES.flatMap(([key, entry]) => instancesOf(key, entry));

const routeName = ({ method, url }: { method: string; url: string }) => `${method} ${url}`;

/** Whether two schemas take and give the same, for one the server builds or declares anew. */
const sameShape = (one: unknown, other: unknown) => {
  const shape = (schema: unknown) =>
    JSON.stringify(z.toJSONSchema(schema as z.ZodType, { io: "input", unrepresentable: "any" }));
  return shape(one) === shape(other);
};

const sqlite = ENGINES.find((engine) => engine.engine === "sqlite");
if (!sqlite) throw new Error("the SQLite engine is missing from the test engines");

describe("the console's route map", () => {
  let t: TestApp;
  let served: Map<string, Served>;
  beforeAll(async () => {
    t = await startApp(sqlite);
    served = new Map();
    for (const route of registered) {
      if (!route.url.startsWith(ADMIN_API)) continue;
      for (const method of [route.method].flat()) {
        if (method === "HEAD") continue;
        served.set(routeName({ method, url: route.url }), {
          method,
          url: route.url,
          schema: route.schema,
        });
      }
    }
  });
  afterAll(() => t.close());

  const servedAs = (instance: Instance) =>
    served.get(routeName({ method: instance.entry.method, url: instance.url }));
  /** Each instance with the route the server registered for it (a missing one fails the first test). */
  const pairs = () =>
    INSTANCES.flatMap((instance) => {
      const route = servedAs(instance);
      return route ? [{ ...instance, schema: route.schema ?? {} }] : [];
    });

  it("names only routes the server registers, each once", () => {
    expect(served.size).toBeGreaterThanOrEqual(40);
    const missing = INSTANCES.filter((instance) => !servedAs(instance)).map(
      ({ key, entry, url }) => `${key}: ${routeName({ method: entry.method, url })}`,
    );
    expect(missing).toEqual([]);
    const names = INSTANCES.map(({ entry, url }) => routeName({ method: entry.method, url }));
    expect(names.length).toBe(new Set(names).size);
  });

  it("names the status and the very schema the server answers a success with", () => {
    const wrong: string[] = [];
    for (const { key, entry, schema } of pairs()) {
      const response = (schema.response ?? {}) as Record<string, unknown>;
      const successes = Object.keys(response).filter((status) => status.startsWith("2"));
      if (successes.join() !== String(entry.status)) {
        wrong.push(`${key}: the server answers a success with ${successes.join(", ")}`);
        continue;
      }
      if (!entry.response) continue;
      if (response[entry.status] !== entry.response) {
        wrong.push(`${key}: the server declares another schema for ${entry.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("names the very query and body schemas the server declares, and none it lacks", () => {
    const wrong: string[] = [];
    for (const { key, entry, list, schema } of pairs()) {
      if (entry.query !== schema.querystring) wrong.push(`${key}: its query`);
      const { body } = entry;
      if (typeof body === "function") {
        // A content list's body is built from its spec, by the same function on both sides.
        const built = (body as (spec: ListSpec) => z.ZodType)(LIST_SPECS[list]);
        if (!sameShape(built, schema.body)) {
          wrong.push(`${key} (${list}): its body`);
        }
      } else if ((body === MULTIPART ? undefined : body) !== schema.body) {
        wrong.push(`${key}: its body`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("holds every console route the server registers, but those reached otherwise", () => {
    const mapped = new Set(
      INSTANCES.map(({ entry, url }) => routeName({ method: entry.method, url })),
    );
    const otherwise = new Set(NOT_CALLED.map(routeName));
    const unmapped = [...served.keys()].filter((name) => !mapped.has(name) && !otherwise.has(name));
    expect(unmapped).toEqual([]);
    // The list of exceptions names registered routes only, and none the map holds.
    const stale = [...otherwise].filter((name) => !served.has(name) || mapped.has(name));
    expect(stale).toEqual([]);
  });
});

describe("the console's writes", () => {
  let t: TestApp;
  beforeAll(async () => {
    // The routes of this app alone: each write is looked at once.
    registered.length = 0;
    t = await startApp(sqlite);
  });
  afterAll(() => t.close());

  /** Each console write the server registers, with the code that runs for it: its handler and own hooks. */
  const writes = () =>
    registered.flatMap((route) => {
      if (!route.url.startsWith(ADMIN_API)) return [];
      const methods = [route.method].flat().filter((method) => WRITE_METHODS.has(method));
      const hooks = [route.onResponse].flat().filter((hook) => typeof hook === "function");
      const code = [route.handler, ...hooks].map(String).join("\n");
      return methods.map((method) => ({ name: routeName({ method, url: route.url }), code }));
    });

  it("go through app.consoleWrite, but those that store nothing", () => {
    const storingNothing = new Set(STORING_NOTHING.map(routeName));
    expect(writes().length).toBeGreaterThanOrEqual(80);
    const bypassing = writes()
      .filter(({ name }) => !storingNothing.has(name))
      .filter(({ code }) => !/\.consoleWrite\(/.test(code))
      .map(({ name }) => name);
    expect(bypassing).toEqual([]);
    // The exceptions name registered writes only.
    const names = new Set(writes().map(({ name }) => name));
    expect([...storingNothing].filter((name) => !names.has(name))).toEqual([]);
  });

  it("open no transaction, write no audit entry and build no HTTP error of their own", () => {
    const byHand = writes().flatMap(({ name, code }) =>
      BY_HAND.filter(({ pattern }) => pattern.test(code)).map(({ what }) => `${name} ${what}`),
    );
    expect(byHand).toEqual([]);
  });

  it("leave the audit entry of a change to the helper alone", () => {
    const writers = serverModules()
      .filter((path) => /\bapp\.audit\(/.test(readFileSync(path, "utf8")))
      .map((path) => path.slice(path.indexOf("src/server/")));
    expect(writers).toEqual(["src/server/platform/console/write.ts"]);
  });
});
