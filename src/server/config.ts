/**
 * Environment configuration, validated once at start. A bad value stops the
 * process with one line naming the variable, so a typo never half-starts a site.
 */
import { resolve } from "node:path";
import { z } from "zod";
import { SITE } from "../shared/site.ts";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** Paths are resolved against the working directory (the package root under npm). */
const path = (fallback: string) =>
  z
    .string()
    .min(1)
    .default(fallback)
    .transform((value) => (value === ":memory:" ? value : resolve(value)));

const booleanFlag = z.enum(["true", "false"]).transform((value) => value === "true");

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/.+/, "must be a postgres:// URL")
    .optional(),
  SQLITE_FILE: path("data/site.db"),
  PUBLIC_ORIGIN: z
    .url()
    .regex(/^https?:\/\/[^/]+$/, "must be an origin like https://example.com, without a path")
    .default("http://localhost:3000"),
  STATIC_DIR: path("build/client"),
  SERVER_BUILD: path("build/server/index.js"),
  CONTENT_DIR: path("content"),
  LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
  TRUST_PROXY: booleanFlag.default(false),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),

  SMTP_URL: z
    .url()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().min(3).default(`"${SITE.firmName}" <${SITE.contactEmail}>`),
  INQUIRY_TO: z.email().default(SITE.contactEmail),
  INQUIRY_ACK: booleanFlag.default(false),
  MAILBOX_DIR: path("data/mail"),
  UNSUBSCRIBE_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  OUTBOX_POLL_MS: z.coerce.number().int().min(10).default(5000),
  OUTBOX_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(10),
  OUTBOX_RETRY_BASE_MS: z.coerce.number().int().min(1).default(30_000),
  OUTBOX_RETRY_MAX_MS: z.coerce.number().int().min(1).default(3_600_000),
  OUTBOX_LEASE_MS: z.coerce.number().int().min(1000).default(60_000),

  ADMIN_DIR: path("build/admin"),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(30),
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).default(12),
  SIGN_IN_FREE_FAILURES: z.coerce.number().int().min(1).default(5),
  SIGN_IN_LOCK_SECONDS: z.coerce.number().int().min(1).default(60),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).default(365),
  MEDIA_DIR: path("data/media"),
  UPLOAD_MAX_MB: z.coerce.number().int().min(1).max(100).default(15),
});

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {}

/** Reads the configuration from an environment; empty values count as unset. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([key, value]) => key in envSchema.shape && value !== ""),
  );
  const result = envSchema.safeParse(present);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const name = String(issue?.path[0] ?? "environment");
  throw new ConfigError(
    `Invalid environment variable ${name}=${JSON.stringify(present[name] ?? "")}: ${issue?.message}`,
  );
}
