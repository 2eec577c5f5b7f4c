/**
 * Reading the settings, once at start: the environment, with what the env
 * file (.env, or ENV_FILE) adds, checked against the settings the server is
 * composed of (src/server/settings.ts joins the slice of each part that
 * reads some). A bad value stops the process with one line naming the
 * variable, so a typo never half-starts a site; so does a variable whose
 * name is a near miss of one of ours (ADR 048). The loader is handed the
 * composed schema: the platform knows no feature's settings.
 */
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { parseEnv } from "node:util";
import { z } from "zod";
import { Refusal } from "./refusal.ts";

export class ConfigError extends Refusal {}

/** The variable that names another env file than .env; read before the others, never by the schema. */
const ENV_FILE = "ENV_FILE";

/**
 * ENV_FILE as a slice of its own, for the settings reference and the near
 * misses: `readEnvFile` reads it before the others, which never include it.
 */
export const envFileSettings = z
  .object({
    [ENV_FILE]: z.string().optional().meta({
      description: "The env file to read besides the environment, which wins over it.",
      shownDefault: "`.env`",
      // A variable in the file cannot name the file it is in.
      envExample: false,
    }),
  })
  .meta({
    title: "The env file",
    description:
      "Set in the process's environment: the server, `npm run dev` and the command-line tools read it before any other setting.",
  });

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

/** The settings the server is composed of: one object of every slice's, then what finishes them. */
type ComposedSettings = z.ZodPipe<z.ZodObject, z.core.SomeType>;

export interface SettingsLoader<Settings> {
  /** Every variable read (the compose file's test checks its settings against them). */
  known: readonly string[];
  /**
   * Reads the settings from an environment; empty values count as unset.
   * A near miss of one of our names stops it, naming the one likely meant.
   */
  load(env: NodeJS.ProcessEnv): Settings;
}

export function settingsLoader<Schema extends ComposedSettings>(
  schema: Schema,
): SettingsLoader<z.output<Schema>> {
  const names = new Set(Object.keys(schema.in.shape));
  const known = [...names, ...Object.keys(envFileSettings.shape)];
  return {
    known,
    load(env) {
      const missed = nearMiss(env, known);
      if (missed) {
        throw new ConfigError(
          `Unknown environment variable ${missed.name}: did you mean ${missed.meant}? This server reads no variable named ${missed.name}.`,
        );
      }
      const present = Object.fromEntries(
        Object.entries(env).filter(([key, value]) => names.has(key) && value !== ""),
      );
      const result = schema.safeParse(present);
      if (result.success) return result.data;
      const issue = result.error.issues[0];
      const name = String(issue?.path[0] ?? "environment");
      throw new ConfigError(
        `Invalid environment variable ${shownValue(name, present[name])}: ${issue?.message}`,
      );
    },
  };
}

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
 * (DATABSE_URL for DATABASE_URL), with the name it likely meant: `known`
 * is every name read. Only names
 * of our shape and at least four letters are judged, never a machine's own.
 */
export function nearMiss(
  env: NodeJS.ProcessEnv,
  known: readonly string[],
): { name: string; meant: string } | undefined {
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === "" || known.includes(name)) continue;
    if (name.length < 4 || !OUR_SHAPE.test(name) || SYSTEM_NAMES.has(name)) continue;
    let meant: string | undefined;
    let best = nearMissOf(name) + 1;
    for (const ours of known) {
      const distance = editDistance(name, ours);
      if (distance < best) [meant, best] = [ours, distance];
    }
    if (meant !== undefined) return { name, meant };
  }
  return undefined;
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
