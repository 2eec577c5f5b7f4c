/**
 * The image can run every command the operations pages document. No
 * container engine runs here, so this reads the files the image is made
 * from: each documented `npm run` names a script in package.json, and each
 * script meant for a running site finds in the image what it runs (ADR 068
 * says what only a build of the image would show).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const DOCS = "docs/operations";
const CONTAINERFILE = readFileSync("deploy/container/Containerfile", "utf8");
const BUILD_SCRIPT = readFileSync("deploy/container/build.sh", "utf8");
const SCRIPTS = (
  JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }
).scripts;
const LAUNCHER = "node scripts/launch.mjs ";

const NAME_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789:-";

/** The name at `from` in `text`: the script's name characters there. */
function nameAt(text: string, from: number): string {
  let end = from;
  while (end < text.length && NAME_CHARACTERS.includes(text[end] as string)) end += 1;
  return text.slice(from, end);
}

/** The scripts the operations pages run: `npm run <name>`, `npm start` and `npm test`. */
function documentedScripts(): string[] {
  const names = new Set<string>();
  for (const page of readdirSync(DOCS).filter((name) => name.endsWith(".md"))) {
    const text = readFileSync(join(DOCS, page), "utf8");
    for (const command of ["npm run ", "npm "]) {
      for (let at = text.indexOf(command); at !== -1; at = text.indexOf(command, at + 1)) {
        const name = nameAt(text, at + command.length);
        if (command === "npm run " ? name !== "" : name === "start" || name === "test") {
          names.add(name);
        }
      }
    }
  }
  return [...names].sort();
}

/** The lines of the image's last stage: what is shipped. */
const SHIPPED = CONTAINERFILE.slice(CONTAINERFILE.lastIndexOf("\nFROM ")).split("\n");
const shipped = (line: string) => SHIPPED.includes(line);

describe("the image and the documented commands", () => {
  const documented = documentedScripts();

  it("documents only scripts package.json has", () => {
    expect(documented.length).toBeGreaterThan(10);
    expect(documented.filter((name) => SCRIPTS[name] === undefined)).toEqual([]);
  });

  it("ships npm, so `npm run …` runs in it as documented", () => {
    expect(BUILD_SCRIPT).toContain('"npm@$npm_version"');
    expect(
      shipped("COPY --from=build /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/npm"),
    ).toBe(true);
    expect(shipped("RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm")).toBe(
      true,
    );
  });

  it("ships what each of the site's commands runs: the launcher, its imports, the built program, the content", () => {
    const commands = documented.filter(
      (name) =>
        SCRIPTS[name]?.startsWith(`exec ${LAUNCHER}`) || SCRIPTS[name]?.startsWith(LAUNCHER),
    );
    expect(commands).toEqual(
      expect.arrayContaining(["backup", "restore", "admin:create", "db:status", "start"]),
    );
    for (const name of commands) {
      const program = (SCRIPTS[name] ?? "").split(LAUNCHER)[1]?.split(" ")[0] ?? "";
      expect(existsSync(join("src/server", program.replace(/\.js$/, ".ts"))), name).toBe(true);
    }
    const launcherImports = readFileSync("scripts/launch.mjs", "utf8")
      .split("\n")
      .filter((line) => line.startsWith("import ") && line.includes('"./'))
      .map((line) => `/app/scripts/${line.slice(line.indexOf('"./') + 3, line.lastIndexOf('"'))}`);
    const scriptsCopy = SHIPPED.find((line) => line.includes("/app/scripts/launch.mjs")) ?? "";
    for (const file of launcherImports) expect(scriptsCopy.split(" ")).toContain(file);
    expect(shipped("COPY --from=build /site-build ./build")).toBe(true);
    expect(shipped("COPY --from=build /app/package.json ./")).toBe(true);
    expect(shipped("COPY content ./content")).toBe(true);
  });

  it("is built on Debian trixie, whose pg_dump (17) backs up PostgreSQL 16 and 17", () => {
    const bases = CONTAINERFILE.split("\n").filter((line) => line.startsWith("FROM "));
    expect(bases).toEqual([
      "FROM localhost/consultancy-site-base:trixie AS build",
      "FROM localhost/consultancy-site-base:trixie",
    ]);
    expect(BUILD_SCRIPT).toContain("base=localhost/consultancy-site-base:trixie");
    expect(BUILD_SCRIPT).toContain("debootstrap --variant=minbase trixie ");
    expect(SHIPPED.join("\n")).toContain("postgresql-client");
  });
});
