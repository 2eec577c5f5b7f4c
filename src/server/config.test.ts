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
});
