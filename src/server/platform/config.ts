/**
 * Environment configuration, validated once at start. A bad value stops the
 * process with one line naming the variable, so a typo never half-starts a site;
 * so does a variable whose name is a near miss of one of ours (ADR 048).
 * `processConfig` is what every entry uses: the process's environment, with
 * what the env file (.env, or ENV_FILE) adds.
 */
import { readFileSync, realpathSync, statSync } from "node:fs";
import { isIP } from "node:net";
import { resolve } from "node:path";
import { parseEnv } from "node:util";
import { z } from "zod";
import { NEWSLETTER_RATE_MAX, NEWSLETTER_RATE_MIN } from "../../shared/admin/mail-settings.ts";
import type { CaptchaProvider } from "../../shared/captcha.ts";
import { SITE } from "../../shared/site.ts";
import { fromHeader, parseMailbox } from "./outbox/mailbox.ts";
import { Refusal } from "./refusal.ts";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** Paths are resolved against the working directory (the package root under npm). */
const path = (fallback: string) =>
  z
    .string()
    .min(1)
    .default(fallback)
    .transform((value) => (value === ":memory:" ? value : resolve(value)));

/**
 * A path into the build, with its links resolved once at start: a later
 * build switches the `build` link, and this instance keeps the files its
 * pages name.
 */
const builtPath = (fallback: string) =>
  path(fallback).transform((value) => {
    try {
      return realpathSync(value);
    } catch {
      return value;
    }
  });

const booleanFlag = z.enum(["true", "false"]).transform((value) => value === "true");

/**
 * The port written in `value`'s authority (after `//`, past any user and
 * an IPv6 literal's brackets), as written; undefined when none is.
 */
function writtenPort(value: string): string | undefined {
  const start = value.indexOf("//");
  if (start === -1) return undefined;
  let end = start + 2;
  while (end < value.length && !"/?#".includes(value[end] as string)) end += 1;
  const authority = value.slice(start + 2, end);
  const hostAndPort = authority.slice(authority.lastIndexOf("@") + 1);
  const colon = hostAndPort.indexOf(":", hostAndPort.lastIndexOf("]") + 1);
  return colon === -1 ? undefined : hostAndPort.slice(colon + 1);
}

/**
 * Why `value` is no URL, said so an operator can mend it; undefined when it
 * is one. A wrong port is named as such: the URL parser only says "Invalid
 * URL", and the database's client fails later with a stack trace instead.
 */
function urlFault(value: string): string | undefined {
  const port = writtenPort(value);
  if (port !== undefined && port !== "") {
    const number = /^\d{1,5}$/.test(port) ? Number(port) : 0;
    if (number < 1 || number > 65_535) {
      return `its port ${JSON.stringify(port)} is not a number from 1 to 65535`;
    }
  }
  if (!URL.canParse(value)) {
    return "is not a URL: each part of it must be written as a URL writes it (a space or a special character in a password percent-encoded, e.g. %40 for @)";
  }
  return undefined;
}

/** A URL setting; its scheme is checked after, by each. */
const url = () =>
  z.string().superRefine((value, context) => {
    const fault = urlFault(value);
    if (fault !== undefined) context.addIssue({ code: "custom", message: fault });
  });

/** An address setting: one mailbox, `"Name" <address>`, `Name <address>` or an address alone. */
const mailbox = z.string().transform((value, context) => {
  const parsed = parseMailbox(value);
  if (!("refusal" in parsed)) return parsed;
  context.addIssue({ code: "custom", message: parsed.refusal });
  return z.NEVER;
});

/** The From of every mail, written back as a header that quotes the name. */
const sender = mailbox.transform(fromHeader);

/** A recipient's or the envelope's address: a name given with it would go nowhere, so only the address is kept. */
const address = mailbox.transform((parsed) => parsed.address);

/** The CAPTCHA services whose widget and verification the site knows. */
export const CAPTCHA_PROVIDERS = [
  "turnstile",
  "hcaptcha",
] as const satisfies readonly CaptchaProvider[];

const DEFAULT_PUBLIC_ORIGIN = "http://localhost:3000";

/** Names Fastify (proxy-addr) knows for the private ranges. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * Which proxies' X-Forwarded-* headers to believe: none (`false`), the nearest
 * N (a hop count), or those at the listed addresses. `true` would let any
 * client choose its own address, and so its own rate limit.
 */
const trustedProxies = z.string().transform((value, context): false | number | string[] => {
  if (value === "false" || value === "0") return false;
  if (/^\d+$/.test(value)) return Number(value);
  if (value === "true") {
    context.addIssue({
      code: "custom",
      message:
        "would believe any client's X-Forwarded-For; write the number of proxies in front of the site (e.g. 1) or their addresses (e.g. 127.0.0.1 or 10.0.0.0/8)",
    });
    return z.NEVER;
  }
  const entries = value.split(",").map((entry) => entry.trim());
  const wrong = entries.find((entry) => !isProxyAddress(entry));
  if (wrong !== undefined) {
    context.addIssue({
      code: "custom",
      message: `${JSON.stringify(wrong)} is not an IP address, a CIDR range (10.0.0.0/8) or one of loopback, linklocal, uniquelocal`,
    });
    return z.NEVER;
  }
  return entries;
});

const NODE_ENVS = ["development", "production", "test"] as const;

const variables = z.object({
  NODE_ENV: z
    .enum(NODE_ENVS, { error: "must be development, production or test (unset means development)" })
    .default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: url()
    .regex(/^postgres(ql)?:\/\/.+/, "must be a postgres:// URL")
    .optional(),
  SQLITE_FILE: path("data/site.db"),
  PUBLIC_ORIGIN: url()
    .regex(/^https?:\/\/[^/]+$/, "must be an origin like https://example.com, without a path")
    .optional(),
  STATIC_DIR: builtPath("build/client"),
  SERVER_BUILD: builtPath("build/server/index.js"),
  CONTENT_DIR: path("content"),
  LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
  TRUST_PROXY: trustedProxies.default(false),
  // The Prometheus figures (platform/ops/metrics.ts): on a port of their own,
  // and/or at /metrics on PORT to a scraper bringing the token.
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  METRICS_TOKEN: z
    .string()
    .min(32, "must be at least 32 characters")
    .regex(
      /^[\x21-\x7e]+$/,
      "may hold only printable ASCII without spaces (it travels in a header)",
    )
    .optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  RATE_LIMIT_CONSOLE_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  RATE_LIMIT_WEBHOOK_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  REDIS_URL: url()
    .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
    .optional(),
  // Sets the keys apart when several sites (or test runs) share one Redis.
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[\w:.-]+$/, "may hold only letters, digits and _ : . -")
    .default("site:"),
  FORM_MIN_SECONDS: z.coerce.number().min(0).max(600).default(3),
  CAPTCHA_PROVIDER: z.enum(CAPTCHA_PROVIDERS).optional(),
  CAPTCHA_SITE_KEY: z.string().min(1).optional(),
  CAPTCHA_SECRET: z.string().min(1).optional(),
  CAPTCHA_VERIFY_URL: url().optional(),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  SHUTDOWN_DRAIN_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(5_000)
    .describe(
      "On SIGTERM, how long the instance goes on serving while /readyz answers 503, so that a balancer polling it stops sending requests; then it refuses new connections (a proxy tries the next instance) and gives the open ones as long again to be closed by the proxy. Keep it above the proxy's idle time-out for its connections to the site (nginx: keepalive_timeout in the upstream block). At most SHUTDOWN_TIMEOUT_MS.",
    ),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).default(72_000),
  CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(200),

  SMTP_URL: url()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  // MAIL_FROM, INQUIRY_TO, NEWSLETTER_RATE_PER_SECOND and NEWSLETTER_DOUBLE_OPT_IN
  // are the defaults of the console's mail settings (features/mail-settings).
  MAIL_FROM: sender.default(`"${SITE.firmName}" <${SITE.contactEmail}>`),
  INQUIRY_TO: address.default(SITE.contactEmail),
  INQUIRY_ACK: booleanFlag.default(false),
  // When an inquiry's notification fails, the owners are alarmed by a route
  // that does not share its fate: this second SMTP server (else SMTP_URL),
  // and this second address besides the owners' own. Neither set: no alarm
  // mail, only the log and the inbox's "not notified".
  ALERT_SMTP_URL: url()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  ALERT_TO: address.optional(),
  MAILBOX_DIR: path("data/mail"),
  // Where reports about sent mail come back: each message's envelope sender
  // is this address with a signed token after a "+" (platform/outbox/bounce-address.ts).
  BOUNCE_ADDRESS: address.optional(),
  // Soft bounces (a full mailbox, a server away) suppress an address only
  // when this many arrive within SOFT_BOUNCE_DAYS.
  SOFT_BOUNCE_LIMIT: z.coerce.number().int().min(1).max(100).default(3),
  SOFT_BOUNCE_DAYS: z.coerce.number().int().min(1).max(365).default(15),
  // Reports (which name an address and quote the receiving server) are kept
  // this long; the one that put an address on the list stays while it is on it.
  REPORT_RETENTION_DAYS: z.coerce.number().int().min(30).default(365),
  // The mailbox BOUNCE_ADDRESS delivers to, read over IMAP for reports.
  BOUNCE_IMAP_URL: url()
    .regex(
      /^imaps?:\/\/[^/]+@[^/]+/,
      "must be an imap:// or imaps:// URL with a user, e.g. imaps://user:pass@host/INBOX",
    )
    .optional(),
  BOUNCE_POLL_MS: z.coerce.number().int().min(100).default(60_000),
  // The DNS servers the console's domain checks ask (ip or ip:port, comma
  // separated); unset, the system's resolver.
  DNS_SERVERS: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .default([]),
  // Every message is signed with this DKIM key when all three are set; the
  // public half is published at <selector>._domainkey.<domain>.
  DKIM_DOMAIN: z.string().min(3).optional(),
  DKIM_SELECTOR: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]*$/i, "may hold only letters, digits and . _ -")
    .optional(),
  DKIM_PRIVATE_KEY_FILE: z
    .string()
    .min(1)
    .transform((value) => resolve(value))
    .optional(),
  // Reports a mail provider posts to /api/v1/deliverability/webhooks/<provider>,
  // checked with the key it shows for its signed webhooks (ADR 034). A
  // provider whose key is unset has no route.
  MAILGUN_WEBHOOK_SIGNING_KEY: z.string().min(1).optional(),
  SENDGRID_WEBHOOK_PUBLIC_KEY: z
    .string()
    .regex(
      /^[A-Za-z0-9+/]+={0,2}$/,
      "must be the base64 verification key SendGrid shows for its Signed Event Webhook",
    )
    .optional(),
  RESEND_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, "must be the signing secret Resend shows (whsec_…)")
    .optional(),
  UNSUBSCRIBE_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  OUTBOX_POLL_MS: z.coerce.number().int().min(10).default(5000),
  /**
   * How often each instance looks for scheduled drafts due: a draft scheduled
   * here wakes this instance's publisher at its time; this bounds how late
   * an instance that did not schedule it, or a restarted one, finds it.
   */
  SCHEDULED_PUBLISH_POLL_MS: z.coerce.number().int().min(10).default(60_000),
  OUTBOX_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(10),
  OUTBOX_RETRY_BASE_MS: z.coerce.number().int().min(1).default(30_000),
  OUTBOX_RETRY_MAX_MS: z.coerce.number().int().min(1).default(3_600_000),
  OUTBOX_LEASE_MS: z.coerce.number().int().min(1000).default(60_000),
  // Insight issues leave at this pace, so the SMTP provider does not throttle them.
  // The console's mail settings may set another, within the same bounds.
  NEWSLETTER_RATE_PER_SECOND: z.coerce
    .number()
    .int()
    .min(NEWSLETTER_RATE_MIN)
    .max(NEWSLETTER_RATE_MAX)
    .default(10),
  // Bulk copies to one receiving domain (the part after the @) start at most
  // this often, across every instance: a mailbox provider throttles or blocks
  // a sender that comes faster than it likes. Unset, a domain may take an
  // issue's whole rate, which stays the ceiling. DOMAIN_RATES names the
  // exceptions, e.g. "gmail.com=20,outlook.com=10".
  DOMAIN_RATE_PER_SECOND: z.coerce.number().positive().max(10_000).optional(),
  DOMAIN_RATES: z
    .string()
    .default("")
    .transform((value, context) => {
      const rates: Record<string, number> = {};
      for (const entry of value.split(",").map((part) => part.trim())) {
        if (entry === "") continue;
        const [domain = "", rate = ""] = entry.split("=").map((part) => part.trim());
        if (!isDomainName(domain) || !(Number(rate) > 0)) {
          context.addIssue({
            code: "custom",
            message: `"${entry}" must be a domain and its copies a second, as in gmail.com=20`,
          });
          return z.NEVER;
        }
        rates[domain.toLowerCase()] = Number(rate);
      }
      return rates;
    }),
  // A domain that answers a bulk copy with 421, 450, 451 or 452 gets nothing
  // more for this long, twice as long at each deferral in a row, at most the
  // max; a delivered copy starts it over.
  DOMAIN_BACKOFF_BASE_MS: z.coerce.number().int().min(1).default(60_000),
  DOMAIN_BACKOFF_MAX_MS: z.coerce.number().int().min(1).default(3_600_000),
  NEWSLETTER_DOUBLE_OPT_IN: booleanFlag.default(false),
  // An Insight e-mail's links to the site carry utm_source=insight,
  // utm_medium=email and utm_campaign=<the issue's slug>, so the leads an
  // issue brings show it as their source; the same tags for every reader.
  INSIGHT_LINK_TAGS: booleanFlag.default(true),
  // The send guard pauses a send when, among its last SEND_GUARD_WINDOW
  // finished copies (once SEND_GUARD_MIN_COPIES have finished), hard bounces
  // or complaints pass these shares: mailbox providers judge a sender by them.
  SEND_GUARD_WINDOW: z.coerce.number().int().min(10).default(1000),
  SEND_GUARD_MIN_COPIES: z.coerce.number().int().min(1).default(100),
  SEND_GUARD_HARD_BOUNCE_PERCENT: z.coerce.number().min(0).max(100).default(5),
  SEND_GUARD_COMPLAINT_PERCENT: z.coerce.number().min(0).max(100).default(0.1),
  NEWSLETTER_CONFIRM_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(72),
  // An address gets at most one confirmation link and one welcome within
  // this many minutes, whoever asks from wherever: the subscribe form cannot
  // be turned on a stranger's mailbox. At most an hour, the shortest life of
  // a confirmation link; 0 turns it off.
  SUBSCRIBE_MAIL_COOLDOWN_MINUTES: z.coerce.number().int().min(0).max(60).default(10),

  ADMIN_DIR: builtPath("build/admin"),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(30),
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).default(12),
  SIGN_IN_FREE_FAILURES: z.coerce.number().int().min(1).default(5),
  SIGN_IN_LOCK_SECONDS: z.coerce.number().int().min(1).default(60),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).default(365),
  // How long the daily purge (platform/ops/daily-purge.ts) keeps the rest
  // (ADR 048). A sent message's subject and bodies: its row stays for the
  // send's figures and a late bounce's trace; mail waiting or failed stays whole.
  OUTBOX_SENT_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  // A console session's row (its IP address and browser) after it ended;
  // the audit log keeps each sign-in with its address.
  SESSION_RETENTION_DAYS: z.coerce.number().int().min(0).default(0),
  // Invitation and reset links after they were used or expired, and used
  // recovery codes: spent, they open nothing.
  TOKEN_RETENTION_DAYS: z.coerce.number().int().min(0).default(0),
  // Posts the forms' traps turned away, for the firm to release one a person sent.
  TURNED_AWAY_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  // Outgoing webhooks (features/webhooks): the firm's own tools told of
  // events. Private, loopback and reserved addresses, and plain http in
  // production, are refused unless this allows them (a tool on the firm's
  // own network); an operator's setting, not a console one, so a stolen
  // console session cannot aim the server inside the network.
  WEBHOOKS_ALLOW_PRIVATE: booleanFlag.default(false),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).default(5000),
  // 14 attempts from 30 s doubling to at most 6 h: about a day and a half.
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(14),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(1).default(30_000),
  WEBHOOK_RETRY_MAX_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(6 * 3_600_000),
  // A delivery's row (its body and the answers) in the console's log.
  WEBHOOK_DELIVERY_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  // Counting the site's audience on the server (features/audience, ADR 051):
  // "off" counts nothing (the benchmark's baseline; a firm that wants no
  // figures). Counts wait in memory and are added to the database every
  // AUDIENCE_FLUSH_SECONDS, so a crash loses at most that much; the daily
  // rollups are kept AUDIENCE_RETENTION_MONTHS, so a year can be set beside
  // the one before it.
  AUDIENCE_COUNTING: z.enum(["on", "off"]).default("on"),
  AUDIENCE_FLUSH_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
  AUDIENCE_RETENTION_MONTHS: z.coerce.number().int().min(1).max(120).default(25),
  // What one client address can add to the figures (ADR 058): page views
  // counted per minute, and new visitors per UTC day (a further browser at
  // that address counts as the address's one shared visitor). With
  // REDIS_URL every instance counts against the same numbers; without it,
  // each process counts alone.
  AUDIENCE_VIEWS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(20),
  AUDIENCE_VISITORS_PER_ADDRESS: z.coerce.number().int().min(1).max(10_000).default(20),
  // The most values one dimension (referrers, UTM tags, browsers…) counts in
  // a UTC day, kept in the database for every instance; further values are
  // counted as "(other)", and the Audience area says on which days.
  AUDIENCE_VALUES_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(2000),
  MEDIA_DIR: path("data/media"),
  UPLOAD_MAX_MB: z.coerce.number().int().min(1).max(100).default(15),
  // Backups (features/backups): where archives go, how often the server
  // takes one (0: never; the command still works) and how many are kept.
  BACKUP_DIR: path("data/backups"),
  BACKUP_EVERY_HOURS: z.coerce.number().int().min(0).max(744).default(0),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(14),
  // The most a restore unpacks and writes (ADR 059): an archive larger than
  // this is refused before anything is written. Raise it for a site with
  // more pictures, as far as the disk holds twice that.
  BACKUP_RESTORE_MAX_MB: z.coerce.number().int().min(1).max(1_048_576).default(4096),
  // A copy of each archive in S3 or a service that speaks its API; the
  // credentials come the AWS SDK's own way (AWS_ACCESS_KEY_ID, …).
  BACKUP_S3_BUCKET: z.string().min(3).optional(),
  BACKUP_S3_ENDPOINT: url().optional(),
  BACKUP_S3_REGION: z.string().min(1).default("us-east-1"),
  // The Audience area's weekly digest: every Monday, last week beside the
  // week before, mailed to every owner. Off unless an owner asks for it.
  AUDIENCE_DIGEST: booleanFlag.default(false),
});

const envSchema = variables
  .superRefine((env, context) => {
    if (env.HEADERS_TIMEOUT_MS > env.REQUEST_TIMEOUT_MS) {
      context.addIssue({
        code: "custom",
        path: ["HEADERS_TIMEOUT_MS"],
        message: `must not exceed REQUEST_TIMEOUT_MS (${env.REQUEST_TIMEOUT_MS}), which includes the headers`,
      });
    }
    if (env.SHUTDOWN_DRAIN_DELAY_MS > env.SHUTDOWN_TIMEOUT_MS) {
      context.addIssue({
        code: "custom",
        path: ["SHUTDOWN_DRAIN_DELAY_MS"],
        message: `must not exceed SHUTDOWN_TIMEOUT_MS (${env.SHUTDOWN_TIMEOUT_MS}), which bounds the wait for the connections after it`,
      });
    }
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT !== 0 && env.METRICS_PORT === env.PORT) {
      context.addIssue({
        code: "custom",
        path: ["METRICS_PORT"],
        message: `must differ from PORT (${env.PORT}); for /metrics on the site's port, set METRICS_TOKEN instead`,
      });
    }
    if (env.CAPTCHA_PROVIDER !== undefined) {
      for (const name of ["CAPTCHA_SITE_KEY", "CAPTCHA_SECRET"] as const) {
        if (env[name] === undefined) {
          context.addIssue({
            code: "custom",
            path: [name],
            message: `must be set when CAPTCHA_PROVIDER=${env.CAPTCHA_PROVIDER}: the provider gives it with the site's registration`,
          });
        }
      }
    }
    const dkim = ["DKIM_DOMAIN", "DKIM_SELECTOR", "DKIM_PRIVATE_KEY_FILE"] as const;
    const dkimSet = dkim.filter((name) => env[name] !== undefined);
    if (dkimSet.length > 0 && dkimSet.length < dkim.length) {
      const missing = dkim.find((name) => env[name] === undefined) ?? "DKIM_DOMAIN";
      context.addIssue({
        code: "custom",
        path: [missing],
        message: `must be set with ${dkimSet.join(" and ")}: a DKIM signature needs the domain, the selector and the private key`,
      });
    }
    if (env.NODE_ENV === "production" && env.PUBLIC_ORIGIN === undefined) {
      context.addIssue({
        code: "custom",
        path: ["PUBLIC_ORIGIN"],
        message: `must be set when NODE_ENV=production: the links in every e-mail point to it (else to ${DEFAULT_PUBLIC_ORIGIN})`,
      });
    }
  })
  .transform((env) => ({ ...env, PUBLIC_ORIGIN: env.PUBLIC_ORIGIN ?? DEFAULT_PUBLIC_ORIGIN }));

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Refusal {}

/** The variable that names another env file than .env; read before the others, never by the schema. */
const ENV_FILE = "ENV_FILE";

/**
 * The largest env file read: every setting with a DKIM key among them is a
 * few kilobytes, so a file this large is a wrong file (a log, a dump), and
 * is refused before it is parsed.
 */
export const ENV_FILE_MAX_BYTES = 256 * 1024;

/**
 * Adds the variables of the env file to `env`, each unless `env` has it
 * already: the process's environment wins over the file. The file is
 * ENV_FILE, else .env in the working directory; a missing .env is no
 * error, a missing ENV_FILE is. Under NODE_ENV=test only ENV_FILE is read,
 * so a developer's .env never reaches the tests. Returns the file read.
 */
export function readEnvFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const named = env[ENV_FILE] || undefined;
  if (named === undefined && env.NODE_ENV === "test") return undefined;
  const file = resolve(named ?? ".env");
  const refuse = (why: string) =>
    new ConfigError(
      `Invalid environment variable ${ENV_FILE}=${JSON.stringify(named ?? ".env")}: ${why}`,
    );
  let bytes: Buffer;
  try {
    const size = statSync(file).size;
    if (size > ENV_FILE_MAX_BYTES) {
      throw refuse(`${file} is ${size} bytes; an env file may hold at most ${ENV_FILE_MAX_BYTES}`);
    }
    bytes = readFileSync(file);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (named === undefined && code === "ENOENT") return undefined;
    throw refuse(`cannot read ${file} (${code ?? String(error)})`);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw refuse(`${file} is not UTF-8 text`);
  }
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (env[name] === undefined) env[name] = value;
  }
  return file;
}

/** This process's configuration: its environment, with what the env file adds (`readEnvFile`). */
export function processConfig(): Config {
  readEnvFile(process.env);
  return loadConfig(process.env);
}

/** Every variable the server reads (the compose file's test checks its settings against them). */
export const KNOWN_NAMES = [...Object.keys(variables.shape), ENV_FILE];

/**
 * Everyday names no near miss is looked for in: HOME is two letters from
 * HOST, and a machine's own variables are never a misspelling of ours.
 */
const SYSTEM_NAMES = new Set([
  "HOME",
  "PATH",
  "HOSTNAME",
  "LANG",
  "TERM",
  "USER",
  "SHELL",
  "PWD",
  "OLDPWD",
  "LOGNAME",
  "MAIL",
  "TZ",
]);

/** The shape of our names: upper case words joined by underscores. */
const OUR_SHAPE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

/**
 * How far a name may be from one of ours (letters added, dropped or changed)
 * to be taken for it: one letter under eight letters, two from eight. Short
 * names are too close to each other: TEST, which test runners set, is two
 * letters from HOST.
 */
const nearMissOf = (name: string) => (name.length < 8 ? 1 : 2);

/** Levenshtein distance: the fewest letters added, dropped or changed to turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const change = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, change);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The first set variable that is not ours but a near miss of one of ours
 * (DATABSE_URL for DATABASE_URL), with the name it likely meant. Only names
 * of our shape and at least four letters are judged, never a machine's own.
 */
export function nearMiss(env: NodeJS.ProcessEnv): { name: string; meant: string } | undefined {
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === "" || KNOWN_NAMES.includes(name)) continue;
    if (name.length < 4 || !OUR_SHAPE.test(name) || SYSTEM_NAMES.has(name)) continue;
    let meant: string | undefined;
    let best = nearMissOf(name) + 1;
    for (const known of KNOWN_NAMES) {
      const distance = editDistance(name, known);
      if (distance < best) [meant, best] = [known, distance];
    }
    if (meant !== undefined) return { name, meant };
  }
  return undefined;
}

/**
 * Reads the configuration from an environment; empty values count as unset.
 * A near miss of one of our names stops it, naming the one likely meant.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const missed = nearMiss(env);
  if (missed) {
    throw new ConfigError(
      `Unknown environment variable ${missed.name}: did you mean ${missed.meant}? This server reads no variable named ${missed.name}.`,
    );
  }
  const present = Object.fromEntries(
    Object.entries(env).filter(([key, value]) => key in variables.shape && value !== ""),
  );
  const result = envSchema.safeParse(present);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const name = String(issue?.path[0] ?? "environment");
  throw new ConfigError(
    `Invalid environment variable ${shownValue(name, present[name])}: ${issue?.message}`,
  );
}

/** Variables whose value a refusal never shows, not even in part. */
const SECRET_NAME = /(SECRET|PASSWORD|TOKEN|SIGNING_KEY)$/;

/** In a query parameter's name, a credential's (password=, sslpassword=, api_key=, access_token=). */
const CREDENTIAL_NAME = /pass|secret|token|key|auth/i;

/**
 * `text` with the value of each query parameter whose name says it is a
 * credential replaced by ***. A parameter starts after `?`, `&` or `;`.
 * Each stretch is read once: a name that is not a credential's is passed
 * over whole, so a line of `?` costs no more than its length.
 */
function withoutCredentialParameters(text: string): string {
  const endOf = (from: number, stops: string) => {
    let at = from;
    while (at < text.length && !stops.includes(text[at] as string)) at += 1;
    return at;
  };
  let masked = "";
  let at = 0;
  while (at < text.length) {
    const character = text[at] as string;
    masked += character;
    at += 1;
    if (character !== "?" && character !== "&" && character !== ";") continue;
    const nameEnd = endOf(at, "=&#;");
    const name = text.slice(at, nameEnd);
    if (text[nameEnd] === "=" && CREDENTIAL_NAME.test(name)) {
      masked += `${name}=***`;
      at = endOf(nameEnd + 1, "&#;");
    } else {
      // A separator inside the name starts a name within this one, so no
      // credential's either.
      masked += name;
      at = nameEnd;
    }
  }
  return masked;
}

/** A domain as a rate is given for: no space, @ or =, and a dot with something on each side. */
function isDomainName(domain: string): boolean {
  const dot = domain.indexOf(".", 1);
  return dot !== -1 && dot < domain.length - 1 && !/[\s@=]/.test(domain);
}

/**
 * A refused value as the start-up line shows it: the variable and the value,
 * except that a secret's value is never shown and a URL's credentials are
 * masked. The start-up line lands in logs and terminals read by more people
 * than those who hold the site's secrets.
 */
function shownValue(name: string, value: string | undefined): string {
  if (value !== undefined && SECRET_NAME.test(name)) return `${name} (value hidden)`;
  return `${name}=${JSON.stringify(withoutCredentials(value ?? ""))}`;
}

/**
 * Masks the password of `scheme://user:password@host` (user alone when there
 * is no password, as a token often stands there) and credentials passed as
 * query parameters. The credentials run to the last @, so a password holding
 * / or @ unencoded is masked whole; a misspelt scheme (`smtp//`) is masked too.
 */
export function withoutCredentials(value: string): string {
  const end = value.lastIndexOf("@");
  let masked = value;
  if (end !== -1) {
    const slashes = value.indexOf("//");
    const start = slashes === -1 || slashes > end ? 0 : slashes + 2;
    const userInfo = value.slice(start, end);
    const colon = userInfo.indexOf(":");
    const shown = colon === -1 ? "***" : `${userInfo.slice(0, colon)}:***`;
    masked = `${value.slice(0, start)}${shown}${value.slice(end)}`;
  }
  return withoutCredentialParameters(masked);
}
