/**
 * The settings reference, generated from the settings slices: the tables of
 * docs/operations/configuration.md (between its markers, the prose around
 * them kept) and the whole of .env.example. Each setting's text, default
 * and example come from its `.meta()`, each section's title and
 * introduction from its slice's; `npm run docs:settings` writes both files,
 * and test/source/settings-reference.test.ts fails while either differs
 * from what this makes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { envFileSettings } from "../src/server/platform/config.ts";
import { PLATFORM_SLICES } from "../src/server/platform/server-settings.ts";
import { FEATURE_SLICES } from "../src/server/settings.ts";

export const CONFIGURATION_DOC = "docs/operations/configuration.md";
export const ENV_EXAMPLE = ".env.example";
export const REGENERATE = "npm run docs:settings";

const START = "<!-- settings:start";
const END = "<!-- settings:end -->";

/**
 * Read by the browser's build (src/web/api/client.ts), never by the server:
 * declared here, beside the server's slices, so the reference names it too.
 */
const browserBuildSettings = z
  .object({
    VITE_API_BASE_URL: z.string().optional().meta({
      description: "Build time: the backend host the browser calls.",
      shownDefault: "same origin",
      comment: "Build time only: the backend host the browser calls (default: same origin).",
    }),
  })
  .meta({
    title: "The browser's build",
    description: "Read when the site is built, not when it runs.",
  });

/** Every section of the reference, in its order. */
const SECTIONS: readonly z.ZodObject[] = [
  envFileSettings,
  ...PLATFORM_SLICES,
  ...FEATURE_SLICES,
  browserBuildSettings,
];

/** What a slice's `.meta()` holds: its section's heading and introduction. */
const sliceMeta = z.strictObject({ title: z.string().min(1), description: z.string().min(1) });

/** What a setting's `.meta()` holds. */
const settingMeta = z.strictObject({
  /** Its meaning: the table's cell (Markdown, one paragraph). */
  description: z.string().min(1),
  /** The table's Default cell, where the schema's default does not say it (none, or worked out at start). */
  shownDefault: z.string().min(1).optional(),
  /** The value .env.example gives, where not the default ("" leaves it unset). */
  example: z.string().optional(),
  /** The comment above it in .env.example (plain text). */
  comment: z.string().min(1).optional(),
  /** false: left out of .env.example. */
  envExample: z.literal(false).optional(),
});

interface Setting {
  name: string;
  meta: z.output<typeof settingMeta>;
  fallback: unknown;
}

interface Section {
  title: string;
  description: string;
  settings: Setting[];
}

/** The default a setting's schema gives when the variable is unset; undefined for none. */
function defaultOf(schema: z.core.$ZodType): unknown {
  const def = schema._zod.def;
  if (def.type === "default") return (def as z.core.$ZodDefaultDef).defaultValue;
  if (def.type === "pipe") return defaultOf((def as z.core.$ZodPipeDef).in);
  return undefined;
}

function metaOf<T extends z.ZodType>(schema: z.core.$ZodType, rule: T, what: string): z.output<T> {
  const parsed = rule.safeParse(z.globalRegistry.get(schema) ?? {});
  if (!parsed.success) {
    throw new Error(
      `${what} is not documented as the settings reference needs: ${parsed.error.message}`,
    );
  }
  return parsed.data;
}

function sections(): Section[] {
  return SECTIONS.map((slice) => {
    const { title, description } = metaOf(slice, sliceMeta, "A settings slice");
    const settings = Object.entries(slice.shape).map(([name, schema]) => ({
      name,
      meta: metaOf(schema, settingMeta, name),
      fallback: defaultOf(schema),
    }));
    return { title, description, settings };
  });
}

/** A default as written in the environment: a string, a number or a flag. */
function written(setting: Setting): string {
  const { fallback, name } = setting;
  if (fallback === undefined) return "";
  if (["string", "number", "boolean"].includes(typeof fallback)) return String(fallback);
  throw new Error(
    `${name}'s default cannot be written as a value: give its .meta() an example and a shownDefault`,
  );
}

const cell = (text: string) => text.replaceAll("|", "\\|");

/** The table's Default cell: the slice's own words, else the default as code, else a dash. */
function shownDefault(setting: Setting): string {
  if (setting.meta.shownDefault !== undefined) return setting.meta.shownDefault;
  const value = written(setting);
  return value === "" ? "—" : `\`${value}\``;
}

function row(setting: Setting): string {
  return `| \`${setting.name}\` | ${cell(shownDefault(setting))} | ${cell(setting.meta.description)} |`;
}

/** The tables, one section per slice, as they stand between the document's markers. */
export function settingsTables(): string {
  return sections()
    .map((section) =>
      [
        `## ${section.title}`,
        "",
        section.description,
        "",
        "| Variable | Default | Meaning |",
        "|---|---|---|",
        ...section.settings.map(row),
      ].join("\n"),
    )
    .join("\n\n");
}

/** `document` with its generated part replaced by `tables`; the prose around it is kept. */
export function withTables(document: string, tables: string): string {
  const start = document.indexOf(START);
  const end = document.indexOf(END);
  if (start === -1 || end < start) {
    throw new Error(`${CONFIGURATION_DOC} has lost its markers (${START} … ${END})`);
  }
  const opening = document.slice(start, document.indexOf("\n", start) + 1);
  return `${document.slice(0, start)}${opening}\n${tables}\n\n${document.slice(end)}`;
}

/**
 * Markdown as a comment reads it: code without its backticks, and a link by
 * its text, with the page it names when that is a document beside the
 * configuration's.
 */
const plain = (markdown: string) =>
  markdown
    .replaceAll(/\[([^\]]+)\]\(([\w-]+\.md)(#[\w-]*)?\)/g, `$1 (${dirname(CONFIGURATION_DOC)}/$2)`)
    .replaceAll(/\[([^\]]+)\]\([^)]+\)/g, "$1")
    .replaceAll("`", "");

/** `text` as comment lines of at most 78 characters. */
function comment(text: string): string[] {
  const lines: string[] = [];
  let line = "#";
  for (const word of plain(text).split(/\s+/)) {
    if (line !== "#" && line.length + 1 + word.length > 78) {
      lines.push(line);
      line = "#";
    }
    line += ` ${word}`;
  }
  return [...lines, line];
}

/** A value as the env file reads it back: quoted when it holds a quote, a # or a space. */
function envValue(name: string, value: string): string {
  if (!/["'#\s]/.test(value)) return value;
  if (value.includes("'")) throw new Error(`${name}'s example cannot be quoted in an env file`);
  return `'${value}'`;
}

const HEADER = [
  "# Every variable the server reads, with its default. Empty means unset.",
  "# Copied to .env, it is read at start; the process's environment wins over it,",
  "# and ENV_FILE (set in the environment) names another file.",
  `# Generated by \`${REGENERATE}\` from the settings slices: change a`,
  "# setting's text in the slice that declares it, not here.",
];

/** .env.example: each slice's settings under its heading, each with its comment. */
export function envExample(): string {
  const blocks = sections().flatMap((section) => {
    const listed = section.settings.filter((setting) => setting.meta.envExample !== false);
    if (listed.length === 0) return [];
    const heading = `# --- ${section.title} `.padEnd(74, "-");
    return [
      [
        heading,
        ...comment(section.description),
        "",
        ...listed.flatMap((setting) => [
          ...(setting.meta.comment ? comment(setting.meta.comment) : []),
          `${setting.name}=${envValue(setting.name, setting.meta.example ?? written(setting))}`,
        ]),
      ].join("\n"),
    ];
  });
  return `${[HEADER.join("\n"), ...blocks].join("\n\n")}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(
    CONFIGURATION_DOC,
    withTables(readFileSync(CONFIGURATION_DOC, "utf8"), settingsTables()),
  );
  writeFileSync(ENV_EXAMPLE, envExample());
  console.log(`Wrote the settings reference to ${CONFIGURATION_DOC} and ${ENV_EXAMPLE}.`);
}
