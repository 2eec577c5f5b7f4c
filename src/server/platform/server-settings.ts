/**
 * The platform's settings: the server's own slice (where it listens, its
 * origin, its files, its logs), the slices of the platform's parts, and
 * how the app's composition joins them with the features' (composeSettings).
 * A settings slice is a zod object of the settings one part alone reads,
 * each documented in its `.meta()`, with the rules between them in its
 * `.superRefine()`; the settings reference is generated from them
 * (scripts/settings-reference.ts).
 */
import { z } from "zod";
import { consoleSettings } from "./console/server-settings.ts";
import { databaseSettings } from "./db/server-settings.ts";
import { metricsSettings, runningSettings } from "./ops/server-settings.ts";
import { outboxSettings } from "./outbox/server-settings.ts";
import { securitySettings } from "./security/server-settings.ts";
import { builtPath, path, url } from "./setting-kinds.ts";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const NODE_ENVS = ["development", "production", "test"] as const;

const DEFAULT_PUBLIC_ORIGIN = "http://localhost:3000";

const serverSettings = z
  .object({
    NODE_ENV: z
      .enum(NODE_ENVS, {
        error: "must be development, production or test (unset means development)",
      })
      .default("development")
      .meta({
        description:
          "`development`, `production` or `test`; any other value stops the server. `production` makes `PUBLIC_ORIGIN` required (the server refuses to start without it).",
        // Unset in the example: a copy made for production sets it there.
        example: "",
        comment:
          "development (unset), production or test; production makes PUBLIC_ORIGIN required (its default below is for development).",
      }),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000).meta({
      description: "Port to listen on.",
      comment: "Address and port the server listens on.",
    }),
    HOST: z.string().min(1).default("0.0.0.0").meta({ description: "Address to listen on." }),
    // Its default is given after the rules, which tell an unset one from it.
    PUBLIC_ORIGIN: url()
      .regex(/^https?:\/\/[^/]+$/, "must be an origin like https://example.com, without a path")
      .optional()
      .meta({
        description:
          "The site's public origin, without a path; the links in e-mails point to it. Required when `NODE_ENV=production`.",
        shownDefault: `\`${DEFAULT_PUBLIC_ORIGIN}\``,
        example: DEFAULT_PUBLIC_ORIGIN,
        comment:
          "The public origin of the site, e.g. https://www.example.com (no path); the links in e-mails point to it. Required when NODE_ENV=production.",
      }),
    STATIC_DIR: builtPath("build/client").meta({
      description: "The built site's files (assets, images, videos).",
      comment: "Where the built site and the seed content are.",
    }),
    SERVER_BUILD: builtPath("build/server/index.js").meta({
      description: "The server build that renders the pages; without it only the API is served.",
      comment: "The server build that renders the pages (without it only the API is served)",
    }),
    CONTENT_DIR: path("content").meta({
      description: "Seed content loaded on the first start.",
    }),
    LOG_LEVEL: z.enum(LOG_LEVELS).default("info").meta({
      description:
        "`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. Logs are JSON lines on standard output, unless it is a terminal: there each line is readable, with the time of day, the level and the message, the other fields below (pino-pretty; `NO_COLOR` turns its colours off). A request line shows the path with its query as `?[redacted]` (addresses and link tokens travel there), and every e-mail address is written `***@domain`. Logs never wait for their reader: up to 1 MiB waits, then lines are dropped and counted (a warn line with `droppedLines` once the reader catches up, and at shutdown).",
      comment:
        "fatal, error, warn, info, debug, trace or silent. JSON lines on standard output; readable lines when it is a terminal.",
    }),
  })
  .superRefine((env, context) => {
    if (env.NODE_ENV === "production" && env.PUBLIC_ORIGIN === undefined) {
      context.addIssue({
        code: "custom",
        path: ["PUBLIC_ORIGIN"],
        message: `must be set when NODE_ENV=production: the links in every e-mail point to it (else to ${DEFAULT_PUBLIC_ORIGIN})`,
      });
    }
  })
  .meta({
    title: "The server",
    description:
      "Where it listens, the origin its links name, where its built files and seed content are, and what it logs.",
  });

/** The platform's slices, in the order the settings reference lists them. */
export const PLATFORM_SLICES = [
  serverSettings,
  databaseSettings,
  securitySettings,
  runningSettings,
  metricsSettings,
  outboxSettings,
  consoleSettings,
] as const;

type UnionToIntersection<U> = (U extends unknown ? (union: U) => void : never) extends (
  intersection: infer I,
) => void
  ? I
  : never;

/** The settings of every slice given, as one shape. */
type JoinedShape<Slices extends readonly z.ZodObject[]> =
  UnionToIntersection<Slices[number]["shape"]> extends infer Shape extends z.core.$ZodLooseShape
    ? { [Name in keyof Shape]: Shape[Name] }
    : never;

/**
 * One object of every slice's settings, each slice's rules run on the whole
 * (in the slices' order, after every setting passed its own). A setting
 * declared by two slices is a mistake in the code, and stops the start.
 */
function joined<const Slices extends readonly z.ZodObject[]>(slices: Slices) {
  const shape: z.core.$ZodLooseShape = {};
  for (const slice of slices) {
    for (const [name, setting] of Object.entries(slice.shape)) {
      if (name in shape) throw new Error(`${name} is declared by two settings slices`);
      shape[name] = setting;
    }
  }
  // A slice's rules read only its own settings, which the whole holds.
  const rules = slices.flatMap(
    (slice) => slice._zod.def.checks ?? [],
  ) as z.core.$ZodCheck<unknown>[];
  return z.object(shape as JoinedShape<Slices>).check(...rules);
}

/** The platform's slices joined, with the rule between two of them. */
const platformSettings = joined(PLATFORM_SLICES).superRefine((env, context) => {
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT !== 0 && env.METRICS_PORT === env.PORT) {
    context.addIssue({
      code: "custom",
      path: ["METRICS_PORT"],
      message: `must differ from PORT (${env.PORT}); for /metrics on the site's port, set METRICS_TOKEN instead`,
    });
  }
});

/**
 * The server's settings: the platform's and the features' given; a rule
 * between a feature's settings and the platform's goes in the app's
 * composition, after this. PUBLIC_ORIGIN, once checked, gets its default.
 * The app's composition calls it with every feature's slice; the platform's
 * own tests with none.
 */
export function composeSettings<const Features extends readonly z.ZodObject[]>(features: Features) {
  return joined([platformSettings, ...features]).transform((env) => ({
    ...env,
    PUBLIC_ORIGIN: (env as { PUBLIC_ORIGIN?: string }).PUBLIC_ORIGIN ?? DEFAULT_PUBLIC_ORIGIN,
  }));
}

/** The settings the platform reads: the platform's slices, composed. */
export type PlatformConfig = z.output<ReturnType<typeof composeSettings<readonly []>>>;
