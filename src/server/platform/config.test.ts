import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

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
    expect(line).toMatch(new RegExp(`^Invalid environment variable ${name}=".*": \\S`));
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
