import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectLinear } from "../../../test/support/growth.ts";
import {
  ConfigError,
  ENV_FILE_MAX_BYTES,
  editDistance,
  nearMiss,
  readEnvFile,
  settingsLoader,
  withoutCredentials,
} from "./config.ts";
import { composeSettings } from "./server-settings.ts";

/**
 * The platform's settings alone, read as the server reads the whole: each
 * feature's are read by the app's composition (src/server/settings.test.ts).
 */
const platform = settingsLoader(composeSettings([]));
const loadConfig = (env: NodeJS.ProcessEnv) => platform.load(env);

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

describe("loadConfig", () => {
  it("gives every variable a default", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: "0.0.0.0",
      LOG_LEVEL: "info",
      PUBLIC_ORIGIN: "http://localhost:3000",
      TRUST_PROXY: false,
    });
    expect(config.SQLITE_FILE).toMatch(/data\/site\.db$/);
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it("treats empty values as unset", () => {
    expect(loadConfig({ PORT: "", DATABASE_URL: "" }).PORT).toBe(3000);
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["DATABASE_URL", "mysql://localhost/db"],
    ["PUBLIC_ORIGIN", "https://example.com/path"],
    ["LOG_LEVEL", "loud"],
    ["TRUST_PROXY", "yes"],
    ["TRUST_PROXY", "true"],
    ["TRUST_PROXY", "10.0.0.0/33"],
    ["TRUST_PROXY", "127.0.0.1, proxy.internal"],
    ["REQUEST_TIMEOUT_MS", "0"],
    ["MAX_EVENT_LOOP_DELAY_MS", "-1"],
  ])("rejects %s=%s with one line naming both", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain(`${name}="${value}"`);
      expect(message).not.toContain("\n");
    }
  });

  it("refuses TRUST_PROXY=true, saying what to write instead", () => {
    expect(() => loadConfig({ TRUST_PROXY: "true" })).toThrow(
      /^Invalid environment variable TRUST_PROXY="true": .*write the number of proxies in front of the site \(e\.g\. 1\) or their addresses/,
    );
  });

  it.each([
    ["false", false],
    ["0", false],
    ["1", 1],
    ["2", 2],
    ["127.0.0.1", ["127.0.0.1"]],
    ["10.0.0.0/8, ::1, fd00::/8,loopback", ["10.0.0.0/8", "::1", "fd00::/8", "loopback"]],
  ])("reads TRUST_PROXY=%s as a hop count or a list of proxies", (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it("refuses a headers time-out longer than the request time-out", () => {
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: "5000", HEADERS_TIMEOUT_MS: "6000" })).toThrow(
      /^Invalid environment variable HEADERS_TIMEOUT_MS="6000": must not exceed REQUEST_TIMEOUT_MS/,
    );
  });

  it("refuses to start in production without PUBLIC_ORIGIN, naming it", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(
      /^Invalid environment variable PUBLIC_ORIGIN="": must be set when NODE_ENV=production/,
    );
    expect(
      loadConfig({ NODE_ENV: "production", PUBLIC_ORIGIN: "https://www.firm.example" })
        .PUBLIC_ORIGIN,
    ).toBe("https://www.firm.example");
    expect(loadConfig({ NODE_ENV: "development" }).PUBLIC_ORIGIN).toBe("http://localhost:3000");
  });

  it.each([
    [
      "SMTP_URL",
      "http://apikey:SuperSecret123@smtp.example.com",
      "http://apikey:***@smtp.example.com",
    ],
    [
      "DATABASE_URL",
      "mysql://site:SuperSecret123@db.internal:3306/site",
      "mysql://site:***@db.internal:3306/site",
    ],
    [
      "REDIS_URL",
      "http://default:SuperSecret123@redis.internal:6379",
      "http://default:***@redis.internal:6379",
    ],
    ["REDIS_URL", "redis://:SuperSecret123@", ":***@"],
    ["SMTP_URL", "smtp//apikey:SuperSecret123@smtp.example.com", "apikey:***@smtp.example.com"],
    ["SMTP_URL", "smtp://apikey:Super/Secret@123@smtp.example.com", "apikey:***@smtp.example.com"],
    ["DATABASE_URL", "mysql://db.internal/site?user=site&password=SuperSecret123", "password=***"],
  ])("names %s and its rule but masks the password in %s", (name, value, masked) => {
    const line = refusal({ [name]: value });
    expect(line.startsWith(`Invalid environment variable ${name}="`)).toBe(true);
    expect(line).toMatch(/": \S/);
    expect(line).toContain(masked);
    expect(line).not.toMatch(/Secret|123/);
  });

  it("serves no figures unless asked, and keeps their own port on loopback", () => {
    const config = loadConfig({});
    expect([config.METRICS_PORT, config.METRICS_TOKEN, config.METRICS_HOST]).toEqual([
      undefined,
      undefined,
      "127.0.0.1",
    ]);
  });

  it("refuses a metrics port that is the site's, and a short METRICS_TOKEN without showing it", () => {
    expect(refusal({ PORT: "3000", METRICS_PORT: "3000" })).toBe(
      'Invalid environment variable METRICS_PORT="3000": must differ from PORT (3000); for /metrics on the site\'s port, set METRICS_TOKEN instead',
    );
    expect(refusal({ METRICS_TOKEN: "short-token" })).toBe(
      "Invalid environment variable METRICS_TOKEN (value hidden): must be at least 32 characters",
    );
  });

  it("names UNSUBSCRIBE_SECRET and its rule but never shows its value, not even in part", () => {
    const line = refusal({ UNSUBSCRIBE_SECRET: "SuperSecret123" });
    expect(line).toBe(
      "Invalid environment variable UNSUBSCRIBE_SECRET (value hidden): must be at least 32 characters",
    );
  });
});

describe("NODE_ENV", () => {
  it("is development when unset, and takes production and test", () => {
    expect(loadConfig({}).NODE_ENV).toBe("development");
    expect(loadConfig({ NODE_ENV: "test" }).NODE_ENV).toBe("test");
    expect(
      loadConfig({ NODE_ENV: "production", PUBLIC_ORIGIN: "https://www.firm.example" }).NODE_ENV,
    ).toBe("production");
  });

  it("refuses any other value with a sentence naming the allowed ones", () => {
    expect(() => loadConfig({ NODE_ENV: "prod" })).toThrow(
      'Invalid environment variable NODE_ENV="prod": must be development, production or test (unset means development)',
    );
  });
});

describe("a near miss of a variable's name", () => {
  it.each([
    ["DATABSE_URL", "DATABASE_URL"],
    ["SQLITE_FLIE", "SQLITE_FILE"],
    ["SMTP_ULR", "SMTP_URL"],
    ["LOG_LEVL", "LOG_LEVEL"],
    ["NODEENV", "NODE_ENV"],
    ["AUDIT_RETENTION_DAY", "AUDIT_RETENTION_DAYS"],
    ["SESION_IDLE_MINUTES", "SESSION_IDLE_MINUTES"],
  ])("stops at %s, naming %s", (name, meant) => {
    expect(() => loadConfig({ [name]: "x" })).toThrow(
      `Unknown environment variable ${name}: did you mean ${meant}? This server reads no variable named ${name}.`,
    );
  });

  it("is not looked for in an empty value, or in names far from ours", () => {
    expect(nearMiss({ DATABSE_URL: "" }, platform.known)).toBeUndefined();
    expect(
      nearMiss({ OUTBOX_SENT_RETENTION: "9", REDIS_PASSWORD: "x" }, platform.known),
    ).toBeUndefined();
  });

  it("measures distance as letters added, dropped or changed", () => {
    expect(editDistance("DATABSE_URL", "DATABASE_URL")).toBe(1);
    expect(editDistance("SMTP_ULR", "SMTP_URL")).toBe(2);
    expect(editDistance("", "PORT")).toBe(4);
    expect(editDistance("PORT", "PORT")).toBe(0);
  });
});

describe("the env file", () => {
  const folder = () => mkdtempSync(join(tmpdir(), "env-file-"));

  it("adds its variables, the environment winning over the file", () => {
    const file = join(folder(), "site.env");
    writeFileSync(file, "PORT=4100\nLOG_LEVEL=warn\n# a comment\nHOST=127.0.0.1\n");
    const env: NodeJS.ProcessEnv = { ENV_FILE: file, LOG_LEVEL: "error" };
    expect(readEnvFile(env)).toBe(file);
    expect(loadConfig(env)).toMatchObject({ PORT: 4100, LOG_LEVEL: "error", HOST: "127.0.0.1" });
  });

  it("is .env in the working directory, and may be missing", () => {
    const cwd = process.cwd();
    const dir = folder();
    try {
      process.chdir(dir);
      const env: NodeJS.ProcessEnv = {};
      expect(readEnvFile(env)).toBeUndefined();
      writeFileSync(join(dir, ".env"), "PORT=4200\n");
      expect(readEnvFile(env)).toBe(join(dir, ".env"));
      expect(env.PORT).toBe("4200");
      // Under NODE_ENV=test a .env is never read: a developer's would reach the tests.
      const testEnv: NodeJS.ProcessEnv = { NODE_ENV: "test" };
      expect(readEnvFile(testEnv)).toBeUndefined();
      expect(testEnv.PORT).toBeUndefined();
    } finally {
      process.chdir(cwd);
    }
  });

  it("refuses a file too large to be an env file before reading it", () => {
    const file = join(folder(), "huge.env");
    writeFileSync(file, `A=${"x".repeat(ENV_FILE_MAX_BYTES)}\n`);
    expect(() => readEnvFile({ ENV_FILE: file })).toThrow(
      `Invalid environment variable ENV_FILE="${file}": ${file} is ${ENV_FILE_MAX_BYTES + 3} bytes; an env file may hold at most ${ENV_FILE_MAX_BYTES}`,
    );
  });

  it("refuses a file that is not UTF-8 rather than guessing its letters", () => {
    const file = join(folder(), "latin1.env");
    writeFileSync(file, Buffer.from("MAIL_FROM=Caf\xe9 <site@firm.example>\n", "latin1"));
    const env: NodeJS.ProcessEnv = { ENV_FILE: file };
    expect(() => readEnvFile(env)).toThrow(
      `Invalid environment variable ENV_FILE="${file}": ${file} is not UTF-8 text`,
    );
    expect(env.MAIL_FROM).toBeUndefined();
  });

  it("refuses an ENV_FILE that cannot be read, naming it", () => {
    const missing = join(folder(), "missing.env");
    expect(() => readEnvFile({ ENV_FILE: missing })).toThrow(
      `Invalid environment variable ENV_FILE="${missing}": cannot read ${missing} (ENOENT)`,
    );
  });
});

describe("masking credentials in a refused value", () => {
  it.each([
    ["postgres://db/site?sslpassword=abc&user=x", "postgres://db/site?sslpassword=***&user=x"],
    ["https://x/?a=1;api_key=abc#top", "https://x/?a=1;api_key=***#top"],
    ["https://x/?a?access_token=abc", "https://x/?a?access_token=***"],
    ["https://x/?page=2&Auth=abc", "https://x/?page=2&Auth=***"],
    ["https://x/?page=2&keyless", "https://x/?page=2&keyless"],
  ])("%s shows as %s", (value, shown) => {
    expect(withoutCredentials(value)).toBe(shown);
  });

  it("takes time in step with the value, however it is written", async () => {
    await expectLinear((size) => `x${"?".repeat(size)}`, withoutCredentials);
    await expectLinear((size) => `?${"KEY".repeat(size)}`, withoutCredentials);
    await expectLinear((size) => `?password=${"?".repeat(size)}`, withoutCredentials);
  });
});

describe("DOMAIN_RATES", () => {
  const rates = (value: string) => loadConfig({ DOMAIN_RATES: value }).DOMAIN_RATES;

  it("takes domains with a dot inside them", () => {
    expect(rates("gmail.com=20, a.b=1")).toEqual({ "gmail.com": 20, "a.b": 1 });
  });

  it.each([".com=1", "gmail.=1", "gmail=1", "gm ail.com=1", "a@b.com=1", "gmail.com=0"])(
    "refuses %s",
    (value) => {
      expect(() => rates(value)).toThrow(ConfigError);
    },
  );
});
