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
});
