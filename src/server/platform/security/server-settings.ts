/**
 * The settings slice of the site's defences: which proxies to believe, the
 * rate limits and the Redis that shares their counts, the forms' minimum
 * time and CAPTCHA, and the secret that signs links and tokens.
 */
import { isIP } from "node:net";
import { z } from "zod";
import type { CaptchaProvider } from "../../../shared/captcha.ts";
import { url } from "../setting-kinds.ts";

/** The CAPTCHA services whose widget and verification the site knows. */
const CAPTCHA_PROVIDERS = ["turnstile", "hcaptcha"] as const satisfies readonly CaptchaProvider[];

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

export const securitySettings = z
  .object({
    TRUST_PROXY: trustedProxies.default(false).meta({
      description:
        "Behind a reverse proxy: its addresses or CIDR ranges, comma-separated (`127.0.0.1`, `10.0.0.0/8`), or the number of proxies in front (`1`; only safe while the server can be reached through the proxy alone). `true` is refused: it would let any client pick its address and so its rate limit.",
      comment:
        "Behind a reverse proxy that sets X-Forwarded-For / X-Forwarded-Proto: the proxies' addresses or CIDR ranges, comma-separated (e.g. 127.0.0.1 or 10.0.0.0/8), or their number (e.g. 1: only safe when the server can be reached through the proxy alone). false: no proxy. true is refused.",
    }),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30).meta({
      description:
        "Writes allowed per client address, minute and route on the public site (subscribe, inquiry, the forms, unsubscribe). The page-view beacon allows twenty times as many (600).",
      comment:
        "Writes per client address, minute and route on the public site (forms, unsubscribe).",
    }),
    RATE_LIMIT_CONSOLE_PER_MINUTE: z.coerce.number().int().min(1).default(120).meta({
      description:
        "Writes allowed per client address, minute and route in the console (`/api/admin`); sign-in and a few others have stricter limits of their own.",
      comment: "Writes per client address, minute and route in the console (/api/admin).",
    }),
    REDIS_URL: url()
      .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
      .optional()
      .meta({
        description:
          "`redis://…` or `rediss://…`: the rate-limit counters, shared by every instance. Unset: each process counts alone. If Redis cannot be reached, requests go through uncounted and an error is logged (ADR 018).",
        comment:
          "Redis for the rate-limit counters shared by several instances (unset: each counts alone).",
      }),
    REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[\w:.-]+$/, "may hold only letters, digits and _ : . -")
      .default("site:")
      .meta({
        description:
          "Prefix of the site's keys in Redis (letters, digits, `_ : . -`); give each site sharing one Redis its own.",
      }),
    FORM_MIN_SECONDS: z.coerce.number().min(0).max(600).default(3).meta({
      description:
        "A form sent sooner than this after the visitor's token was issued is taken for a script: it gets the normal success answer, nothing is stored or sent, and it is counted (console inbox). `0` switches it off (ADR 017).",
      comment:
        "Bot defences (ADR 017): seconds a visitor's token must be old before a form post counts.",
    }),
    CAPTCHA_PROVIDER: z.enum(CAPTCHA_PROVIDERS).optional().meta({
      description:
        "`turnstile` (Cloudflare) or `hcaptcha`: every form write must bring the widget's answer, checked with the service. Unset: no widget, nothing loaded from the service.",
      comment: "Optional CAPTCHA on both forms: turnstile or hcaptcha, with the provider's keys.",
    }),
    CAPTCHA_SITE_KEY: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "The provider's public site key; required with `CAPTCHA_PROVIDER`." }),
    CAPTCHA_SECRET: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "The provider's secret; required with `CAPTCHA_PROVIDER`." }),
    CAPTCHA_VERIFY_URL: url().optional().meta({
      description:
        "Where answers are checked (form-encoded POST, 5 s time-out). If it cannot be reached, writes answer 503 and the visitor can try again.",
      shownDefault: "the provider's",
    }),
    UNSUBSCRIBE_SECRET: z.string().min(32, "must be at least 32 characters").optional().meta({
      description:
        "The signing secret (≥ 32 characters): it signs unsubscribe and confirmation links, the bounce addresses and the forms' tokens; unset, one is generated once and kept in the database.",
      shownDefault: "generated",
      comment:
        "Signs unsubscribe links (32+ characters). Unset: generated once, kept in the database.",
    }),
  })
  .superRefine((env, context) => {
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
  })
  .meta({
    title: "Proxies, rate limits and the forms' defences",
    description:
      "Which proxies to believe, how many writes a client may make, where the counts are shared, what keeps scripts off the forms, and the secret that signs links and tokens.",
  });
