/**
 * `npm start` and the commands start the built programs through
 * scripts/launch.mjs: it builds only when the build is missing or older
 * than the sources, runs the program in its own process (so a supervisor's
 * SIGTERM reaches the server, which closes gracefully and leaves nothing
 * running), and without the build tools serves the build it has or says
 * how to make one. A new build switches the `build` link; an instance that
 * started from the build before keeps serving that build's files.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildState, switchBuildTo } from "../../scripts/build-state.mjs";
import { childOutput } from "../support/child-output.ts";
import { startServer } from "../support/server-process.ts";

const LAUNCH = resolve("scripts/launch.mjs");
const current = buildState() === "current";
if (!current)
  console.warn("Launch tests skipped: the build is missing or stale (npm run build makes it)");

/** Folders inside the repository, so a copied build finds the installed packages by walking up. */
const made: string[] = [];
function scratch(): string {
  const dir = mkdtempSync(resolve("test-results-launch-"));
  made.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe("the launcher without build tools", () => {
  it("refuses when there is no build, saying how to make one", async () => {
    const { code, stderr } = await childOutput(
      spawn(process.execPath, [LAUNCH, "main.js"], {
        cwd: scratch(),
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    expect(code).toBe(1);
    expect(stderr.trim()).toMatch(
      /^There is no build, and this install has no build tools \(npm ci --omit=dev\)\. Build where/,
    );
  });

  it.skipIf(!current)("runs a stale build as it is, saying so, rather than failing", async () => {
    const dir = scratch();
    cpSync(realpathSync("build"), join(dir, ".builds", "one"), { recursive: true });
    switchBuildTo(join(".builds", "one"), dir);
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src", "changed.ts"), "");
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(dir, "src", "changed.ts"), later, later);
    const { code, stdout, stderr } = await childOutput(
      spawn(process.execPath, [LAUNCH, "cli/db-status.js", "--help"], {
        cwd: dir,
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    expect(stderr).toContain(
      "The sources are newer than the build, and this install cannot build: serving the build as it is.",
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: npm run db:status/);
  });
});

describe.skipIf(!current)("npm start under a supervisor", () => {
  it("serves without building, and a SIGTERM to npm closes the server gracefully, leaving no process", async () => {
    const npm = spawn("npm", ["start"], {
      env: {
        ...process.env,
        PORT: "0",
        HOST: "127.0.0.1",
        LOG_LEVEL: "info",
        SQLITE_FILE: join(mkdtempSync(join(tmpdir(), "launch-")), "site.db"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const lines: string[] = [];
    const listening = new Promise<string>((found) => {
      npm.stdout?.on("data", (chunk) => {
        for (const line of String(chunk).split("\n")) {
          lines.push(line);
          const origin = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
          if (origin) found(origin);
        }
      });
    });
    let stderr = "";
    npm.stderr?.on("data", (chunk) => {
      stderr += String(chunk);
    });
    const origin = await listening;
    expect((await fetch(`${origin}/`)).status).toBe(200);
    const server = readdirSync("/proc").find(
      (pid) => /^\d+$/.test(pid) && parentOf(pid) === npm.pid,
    );
    expect(server, "the server runs as npm's own child, with no shell between").toBeDefined();
    npm.kill("SIGTERM");
    const [code] = await once(npm, "exit");
    expect(code).toBe(0);
    expect(
      lines.some((line) => line.includes('"msg":"shutting down: finishing in-flight requests"')),
    ).toBe(true);
    expect(() => process.kill(Number(server), 0)).toThrow();
    expect(stderr).not.toMatch(/building/i);
  });
});

/** The parent of a running process, from /proc (undefined once it is gone). */
function parentOf(pid: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

describe.skipIf(!current)("a new build under a running instance", () => {
  it("keeps serving the files of the build the instance started from", async () => {
    const dir = scratch();
    cpSync(realpathSync("build"), join(dir, ".builds", "one"), { recursive: true });
    switchBuildTo(join(".builds", "one"), dir);
    const server = await startServer({
      STATIC_DIR: join(dir, "build", "client"),
      SERVER_BUILD: join(dir, "build", "server", "index.js"),
    });
    try {
      const page = await (await fetch(`${server.origin}/`)).text();
      const script = /\/assets\/[^"]+\.js/.exec(page)?.[0];
      expect(script).toBeDefined();
      // The next build has other files; the link now points to it.
      mkdirSync(join(dir, ".builds", "two", "client", "assets"), { recursive: true });
      switchBuildTo(join(".builds", "two"), dir);
      expect(realpathSync(join(dir, "build"))).toBe(join(dir, ".builds", "two"));
      expect((await fetch(`${server.origin}${script}`)).status).toBe(200);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  });
});

describe("asking for the usage or the version", () => {
  /** What the launcher runs as `npm run build` here: it leaves a mark, so a build it began shows. */
  const BUILD_MARK = "build-ran";
  /**
   * A program that started instead of showing its usage is stopped after
   * this, so the test fails rather than waits; the test itself has longer,
   * as the other process tests on a busy machine.
   */
  const USAGE_LIMIT_MS = 45_000;
  const TEST_MS = 60_000;

  /** A folder with no build, where the launcher could build (the build tools are installed). */
  function unbuilt(): string {
    const dir = scratch();
    symlinkSync(resolve("node_modules"), join(dir, "node_modules"));
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        private: true,
        scripts: { build: `node -e "require('node:fs').writeFileSync('${BUILD_MARK}', '')"` },
      }),
    );
    return dir;
  }

  it.each([
    ["main.js", "--help", "Usage: npm start"],
    ["main.js", "-h", "Usage: npm start"],
    ["cli/db-status.js", "--help", "Usage: npm run db:status"],
  ])(
    "%s %s with no build shows the usage and ends with 0, building and serving nothing",
    async (program, flag, usage) => {
      const dir = unbuilt();
      const { code, stdout, stderr } = await childOutput(
        spawn(process.execPath, [LAUNCH, program, flag], {
          cwd: dir,
          stdio: ["ignore", "pipe", "pipe"],
        }),
        USAGE_LIMIT_MS,
      );
      expect(stdout).toContain(usage);
      expect(stdout).not.toContain("Server listening");
      expect(stderr).not.toMatch(/building/i);
      expect(code).toBe(0);
      expect(existsSync(join(dir, BUILD_MARK))).toBe(false);
      expect(readdirSync(dir).sort()).toEqual(["node_modules", "package.json"]);
    },
    TEST_MS,
  );

  it("--version prints the version of package.json and ends with 0, building and serving nothing", async () => {
    const dir = unbuilt();
    const { code, stdout } = await childOutput(
      spawn(process.execPath, [LAUNCH, "main.js", "--version"], {
        cwd: dir,
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
    expect(stdout).toBe(`${version}\n`);
    expect(code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["node_modules", "package.json"]);
  });

  it("npm run build -- --help shows the usage and ends with 0, building nothing", async () => {
    const dir = scratch();
    const { code, stdout } = await childOutput(
      spawn(process.execPath, ["--import", "tsx", resolve("scripts/build.ts"), "--help"], {
        cwd: dir,
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    expect(stdout).toContain("Usage: npm run build");
    expect(code).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });
});
