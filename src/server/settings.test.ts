/**
 * The server's settings as the app composes them: every slice's settings
 * read, each slice's rules run on the whole, one refusal line whichever
 * slice refused. The loader's own rules are tested with the platform's
 * settings alone (platform/config.test.ts).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigError, nearMiss, settingsLoader } from "./platform/config.ts";
import { composeSettings } from "./platform/server-settings.ts";
import { FEATURE_SLICES, KNOWN_NAMES, loadConfig } from "./settings.ts";

/** The one line a refusal prints, for the variables given. */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("the configuration was accepted");
}

describe("the composed settings", () => {
  it("read every feature's slice", () => {
    const names = FEATURE_SLICES.flatMap((slice) => Object.keys(slice.shape));
    expect(names.filter((name) => !KNOWN_NAMES.includes(name))).toEqual([]);
    expect(loadConfig({ BACKUP_KEEP: "3", WEBHOOK_POLL_MS: "50" })).toMatchObject({
      BACKUP_KEEP: 3,
      WEBHOOK_POLL_MS: 50,
      INQUIRY_ACK: false,
    });
  });

  it("stop at a near miss of a feature's setting, naming it", () => {
    expect(refusal({ BACKUP_KEPP: "3" })).toBe(
      "Unknown environment variable BACKUP_KEPP: did you mean BACKUP_KEEP? This server reads no variable named BACKUP_KEPP.",
    );
  });

  it("refuse a feature's setting in the same one line, naming it", () => {
    expect(refusal({ AUDIENCE_FLUSH_SECONDS: "0" })).toMatch(
      /^Invalid environment variable AUDIENCE_FLUSH_SECONDS="0": \S[^\n]*$/,
    );
    expect(refusal({ RESEND_WEBHOOK_SECRET: "whsec-wrong" })).toBe(
      "Invalid environment variable RESEND_WEBHOOK_SECRET (value hidden): must be the signing secret Resend shows (whsec_…)",
    );
  });

  it("run a feature's own rule on the whole, and refuse as any other", () => {
    const feature = z
      .object({ PROBE_LIMIT: z.coerce.number().default(1) })
      .superRefine((env, context) => {
        if (env.PROBE_LIMIT > 5) {
          context.addIssue({ code: "custom", path: ["PROBE_LIMIT"], message: "must be at most 5" });
        }
      });
    const loader = settingsLoader(composeSettings([feature]));
    expect(loader.load({ PROBE_LIMIT: "4" })).toMatchObject({ PROBE_LIMIT: 4, PORT: 3000 });
    expect(() => loader.load({ PROBE_LIMIT: "6" })).toThrow(
      'Invalid environment variable PROBE_LIMIT="6": must be at most 5',
    );
    // The platform's rules still run beside it.
    expect(() => loader.load({ NODE_ENV: "production" })).toThrow(
      /^Invalid environment variable PUBLIC_ORIGIN="": must be set when NODE_ENV=production/,
    );
  });

  it("refuse a setting two slices declare", () => {
    const twice = z.object({ PORT: z.coerce.number().default(4000) });
    expect(() => composeSettings([twice])).toThrow("PORT is declared by two settings slices");
  });
});

describe("a near miss of a variable's name", () => {
  it("never takes a machine's, a CI runner's or our tooling's own variables for ours", () => {
    const theirs = [
      ...["PATH", "HOME", "HOSTNAME", "LANG", "TERM", "USER", "SHELL", "PWD", "OLDPWD", "MAIL"],
      ...["TZ", "CI", "TEST", "VITEST", "VITEST_POOL_ID", "NODE_OPTIONS", "NODE_PATH", "LC_ALL"],
      ...["GITHUB_ACTIONS", "GITHUB_TOKEN", "GITHUB_WORKSPACE", "RUNNER_OS", "RUNNER_TEMP"],
      ...["ImageOS", "JAVA_HOME", "ANDROID_HOME", "DEBIAN_FRONTEND", "XDG_RUNTIME_DIR", "NVM_DIR"],
      ...["SESSION_MANAGER", "SSH_AUTH_SOCK", "POSTGRES_PASSWORD", "DISPLAY", "EDITOR"],
      ...["npm_config_cache", "npm_lifecycle_event", "npm_package_name"],
      ...["TEST_DATABASE_URL", "TEST_REDIS_URL", "E2E_PORT", "API_PORT", "BUILD_DIR"],
      ...["VITE_API_BASE_URL", "THROW_ON_CUE", "BLOCK_ON_CUE", "BENCH_PORT", "RATE"],
    ];
    expect(
      nearMiss(Object.fromEntries(theirs.map((name) => [name, "x"])), KNOWN_NAMES),
    ).toBeUndefined();
    // This process's own: the machine's and the test runner's.
    expect(nearMiss(process.env, KNOWN_NAMES)).toBeUndefined();
  });
});

describe("address settings", () => {
  it.each([
    ['"Meridian, Insight" <site@firm.example>', '"Meridian, Insight" <site@firm.example>'],
    [
      "Meridian Consulting Group <site@firm.example>",
      '"Meridian Consulting Group" <site@firm.example>',
    ],
    ["site@firm.example", "site@firm.example"],
    ["site@firm.example (Meridian)", '"Meridian" <site@firm.example>'],
  ])("reads MAIL_FROM=%s as the header %s", (value, header) => {
    expect(loadConfig({ MAIL_FROM: value }).MAIL_FROM).toBe(header);
  });

  it.each(["INQUIRY_TO", "ALERT_TO", "BOUNCE_ADDRESS"] as const)(
    "reads %s as a mailbox and keeps its address",
    (name) => {
      expect(loadConfig({ [name]: "Front desk <desk@firm.example>" })[name]).toBe(
        "desk@firm.example",
      );
    },
  );

  it.each([
    ["MAIL_FROM", "Meridian Consulting Group", /has no address; write "Name" <address>/],
    ["MAIL_FROM", "<>", /has no address/],
    ["MAIL_FROM", "a@firm.example, b@firm.example", /names 2 mailboxes; write one/],
    ["MAIL_FROM", "Staff: a@firm.example, b@firm.example;", /is a group of addresses/],
    ["MAIL_FROM", "Meridian <hello>", /holds "hello", which is not an e-mail address/],
    ["INQUIRY_TO", "Front desk", /has no address/],
    ["ALERT_TO", "a@firm.example; b@firm.example", /names 2 mailboxes/],
    ["BOUNCE_ADDRESS", "bounces", /holds "bounces", which is not an e-mail address|has no address/],
  ])("refuses %s=%s at start in one line naming it", (name, value, why) => {
    const message = refusal({ [name]: value });
    expect(message.startsWith(`Invalid environment variable ${name}=`)).toBe(true);
    expect(message).toMatch(why);
    expect(message).not.toContain("\n");
  });

  it("refuses an address setting too long for a mailbox before parsing it", () => {
    expect(() => loadConfig({ MAIL_FROM: `"${"M".repeat(600)}" <a@firm.example>` })).toThrow(
      /^Invalid environment variable MAIL_FROM=".*": is 619 characters long; a mailbox has at most 512$/,
    );
  });
});

describe("URL settings", () => {
  it.each([
    [
      "DATABASE_URL",
      "postgres://site@db.internal:99999/site",
      'its port "99999" is not a number from 1 to 65535',
    ],
    [
      "DATABASE_URL",
      "postgres://site@db.internal:abc/site",
      'its port "abc" is not a number from 1 to 65535',
    ],
    [
      "DATABASE_URL",
      "postgres://site:hunter2@db.internal:0/site",
      'its port "0" is not a number from 1 to 65535',
    ],
    ["DATABASE_URL", "postgres://site@db internal/site", "is not a URL"],
    [
      "REDIS_URL",
      "redis://cache.internal:70000",
      'its port "70000" is not a number from 1 to 65535',
    ],
    ["SMTP_URL", "smtp://apikey@smtp.example.com:25x", 'its port "25x" is not a number'],
    ["ALERT_SMTP_URL", "smtp://[::1]:123456", 'its port "123456" is not a number'],
    ["BOUNCE_IMAP_URL", "imaps://user@imap.example.com:99999/INBOX", 'its port "99999"'],
    ["BACKUP_S3_ENDPOINT", "https://s3.example.com:port", 'its port "port"'],
    ["CAPTCHA_VERIFY_URL", "https://captcha example.com/verify", "is not a URL"],
    ["PUBLIC_ORIGIN", "https://www.firm.example:66000", 'its port "66000"'],
  ])("refuses %s=%s at start in one line naming it", (name, value, why) => {
    const message = refusal({ [name]: value });
    expect(message.startsWith(`Invalid environment variable ${name}="`)).toBe(true);
    expect(message).toContain(`: ${why}`);
    expect(message).not.toContain("\n");
    expect(message).not.toContain("hunter2");
  });

  it("reads a database URL with an IPv6 host and its port, or with none for the local socket", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://site@[::1]:5432/site" }).DATABASE_URL).toBe(
      "postgres://site@[::1]:5432/site",
    );
    expect(loadConfig({ DATABASE_URL: "postgres:///site" }).DATABASE_URL).toBe("postgres:///site");
  });
});
