/**
 * A rolling upgrade behind deploy/nginx.conf loses no request: Debian's nginx
 * runs the shipped configuration (test/support/nginx.ts changes only names,
 * ports and paths) in front of two instances on one SQLite database, while
 * visitors load pages with the assets each page names and send inquiries.
 * Meanwhile a new build is made and `build` switched to it, and each instance
 * in turn is stopped (SIGTERM) and started again on it, the second once the
 * first is ready, as docs/operations/upgrades.md says. Every request must
 * succeed and every inquiry answered with success must be stored exactly
 * once. Also: nginx lets through the largest body the site accepts.
 */
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:https";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { switchBuildTo } from "../../scripts/build-state.mjs";
import { openDatabase } from "../../src/server/platform/db/connection.ts";
import { IMPORT_LIMITS, IMPORT_ROUTES } from "../../src/shared/admin/subscriber-import.ts";
import { VALID_INQUIRY } from "../support/fixtures.ts";
import {
  hasNginx,
  NGINX_SKIP_REASON,
  proxyConfig,
  startNginx,
  throwawayCertificate,
} from "../support/nginx.ts";
import { type ServerProcess, startServer } from "../support/server-process.ts";

const nginx = hasNginx();
if (!nginx) console.warn(NGINX_SKIP_REASON);

const HOST = "rolling-upgrade.test";
const STUB_BUILD = new URL("../support/stub-server-build.mjs", import.meta.url);
const PAGES = ["/", "/weare", "/admin"];
const PAGE_READERS = 3;
/** Requests the load may send at most, whatever happens: it stops well before. */
const MAX_REQUESTS = 20_000;
/** Rounds each visitor makes after both instances run the new build. */
const ROUNDS_AFTER = 3;
/** Requests on the old build before the upgrade begins. */
const WARM_UP_REQUESTS = 50;
const MEGABYTE = 1024 * 1024;

/** A port free now, for a process that must come back on the same one. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A finished build as scripts/build.ts leaves it: pages (the stub) naming their hashed assets. */
function writeBuild(builds: string, name: string): string {
  const build = join(builds, name);
  const id = randomBytes(4).toString("hex");
  for (const part of ["client/assets", "admin/assets", "server"]) {
    mkdirSync(join(build, part), { recursive: true });
  }
  writeFileSync(join(build, "client/assets", `entry-${id}.js`), `console.log("${name}");`);
  writeFileSync(join(build, "client/assets", `style-${id}.css`), `/* ${name} */`);
  writeFileSync(join(build, "admin/assets", `console-${id}.js`), `console.log("${name}");`);
  writeFileSync(
    join(build, "admin/index.html"),
    `<!doctype html><script type="module" src="/admin/assets/console-${id}.js"></script>`,
  );
  copyFileSync(STUB_BUILD, join(build, "server/index.js"));
  writeFileSync(join(build, "build-info.json"), "{}\n");
  return build;
}

interface Outcome {
  method: string;
  path: string;
  status: number;
  error?: string;
}

describe.skipIf(!nginx)("a rolling upgrade behind nginx", () => {
  const dir = mkdtempSync(join(tmpdir(), "rolling-upgrade-"));
  const builds = join(dir, ".builds");
  const runId = randomBytes(4).toString("hex");
  let env: Record<string, string>;
  let ports: [number, number];
  let httpsPort: number;
  const servers: ServerProcess[] = [];
  let proxy: ReturnType<typeof startNginx> | undefined;
  let agent: Agent;

  const call = (
    method: string,
    path: string,
    { headers = {}, body }: { headers?: Record<string, string>; body?: Buffer | string } = {},
  ) =>
    new Promise<{ status: number; body: string; cookies: string[] }>((resolve, reject) => {
      const sent = request(
        { agent, host: "127.0.0.1", port: httpsPort, servername: HOST, method, path },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => chunks.push(chunk));
          answer.on("error", reject);
          answer.on("end", () =>
            resolve({
              status: answer.statusCode ?? 0,
              body: Buffer.concat(chunks).toString("utf8"),
              cookies: answer.headers["set-cookie"] ?? [],
            }),
          );
        },
      );
      sent.setHeader("host", HOST);
      for (const [name, value] of Object.entries(headers)) sent.setHeader(name, value);
      sent.on("error", reject);
      sent.end(body);
    });

  const startInstance = (index: 0 | 1) =>
    startServer({ ...env, PORT: String(ports[index]) }).then((server) => {
      servers[index] = server;
      return server;
    });

  beforeAll(async () => {
    switchBuildTo(relative(dir, writeBuild(builds, "2026-11-28T10-00-00-000Z")), dir);
    ports = [await freePort(), await freePort()];
    httpsPort = await freePort();
    env = {
      SQLITE_FILE: join(dir, "site.db"),
      MAILBOX_DIR: join(dir, "mail"),
      MEDIA_DIR: join(dir, "media"),
      STATIC_DIR: join(dir, "build/client"),
      ADMIN_DIR: join(dir, "build/admin"),
      SERVER_BUILD: join(dir, "build/server/index.js"),
      TRUST_PROXY: "127.0.0.1",
      RATE_LIMIT_PER_MINUTE: "100000",
      // Above the idle time-out of nginx's connections to the instances (keepalive_timeout).
      SHUTDOWN_DRAIN_DELAY_MS: "3000",
    };
    // The first start migrates the database; the second then finds it ready.
    await startInstance(0);
    await startInstance(1);
    const { cert, key } = throwawayCertificate(dir, HOST);
    const config = proxyConfig({
      dir,
      host: HOST,
      cert,
      key,
      instancePorts: ports,
      httpPort: await freePort(),
      httpsPort,
    });
    proxy = startNginx(config, join(dir, "error.log"));
    agent = new Agent({ keepAlive: true, maxSockets: PAGE_READERS + 2, ca: readFileSync(cert) });
    await vi.waitFor(
      async () => {
        if (proxy?.exitCode !== null)
          throw new Error(`nginx stopped: ${readFileSync(join(dir, "error.log"), "utf8")}`);
        expect((await call("GET", "/readyz")).status).toBe(200);
      },
      { timeout: 30_000, interval: 50 },
    );
  }, 300_000);

  afterAll(async () => {
    proxy?.kill("SIGQUIT");
    for (const server of servers) server.child.kill("SIGTERM");
    await Promise.all(servers.map((server) => server.exited));
    agent?.destroy();
  });

  it("loses no request and no write while both instances move to a new build", {
    timeout: 600_000,
  }, async () => {
    const outcomes: Outcome[] = [];
    let warm = () => {};
    const warmedUp = new Promise<void>((resolve) => {
      warm = resolve;
    });
    const record = async (method: string, path: string, send: () => ReturnType<typeof call>) => {
      let answer: Awaited<ReturnType<typeof call>> | undefined;
      try {
        answer = await send();
        outcomes.push({ method, path, status: answer.status });
      } catch (error) {
        outcomes.push({ method, path, status: 0, error: String(error) });
      }
      if (outcomes.length === WARM_UP_REQUESTS) warm();
      return answer;
    };
    let upgraded = false;
    const budget = () => outcomes.length < MAX_REQUESTS;

    const readPages = async () => {
      let roundsAfter = 0;
      while (budget() && roundsAfter < ROUNDS_AFTER) {
        if (upgraded) roundsAfter += 1;
        for (const page of PAGES) {
          const answer = await record("GET", page, () => call("GET", page));
          if (answer?.status !== 200) continue;
          for (const [, asset] of answer.body.matchAll(/src="(\/[^"]+)"/g)) {
            await record("GET", String(asset), () => call("GET", String(asset)));
          }
        }
      }
    };

    const token = JSON.parse((await call("GET", "/api/v1/xsrf")).body).token as string;
    const sentInquiries: { comments: string; status: number }[] = [];
    const sendInquiries = async () => {
      let roundsAfter = 0;
      for (let i = 0; budget() && roundsAfter < ROUNDS_AFTER; i += 1) {
        if (upgraded) roundsAfter += 1;
        const comments = `rolling upgrade ${runId} #${i}`;
        const answer = await record("POST", "/api/v1/send-comment", () =>
          call("POST", "/api/v1/send-comment", {
            headers: {
              cookie: `XSRF-TOKEN=${token}`,
              "x-xsrf-token": token,
              "content-type": "application/json",
            },
            body: JSON.stringify({ ...VALID_INQUIRY, comments }),
          }),
        );
        sentInquiries.push({ comments, status: answer?.status ?? 0 });
      }
    };

    const upgrade = async () => {
      try {
        // Some load on the old build first.
        await warmedUp;
        switchBuildTo(relative(dir, writeBuild(builds, "2026-11-28T11-00-00-000Z")), dir);
        for (const index of [0, 1] as const) {
          const old = servers[index] as ServerProcess;
          old.child.kill("SIGTERM");
          expect(await old.exited).toBe(0);
          const restarted = await startInstance(index);
          expect((await fetch(`${restarted.origin}/readyz`)).status).toBe(200);
        }
      } finally {
        // The load winds down even when a step failed.
        upgraded = true;
      }
    };

    await Promise.all([
      upgrade(),
      sendInquiries(),
      ...Array.from({ length: PAGE_READERS }, () => readPages()),
    ]);

    const failed = outcomes.filter((outcome) => outcome.status < 200 || outcome.status >= 300);
    const summary = (list: Outcome[]) => {
      const counts = new Map<string, number>();
      for (const { method, path, status, error } of list) {
        const what = `${method} ${path} ${status}${error ? ` ${error}` : ""}`;
        counts.set(what, (counts.get(what) ?? 0) + 1);
      }
      return [...counts].map(([what, count]) => `${what} × ${count}`);
    };
    console.log(
      `rolling upgrade: ${outcomes.length} requests (${sentInquiries.length} inquiries), ${failed.length} failed: ${summary(failed).join("; ")}`,
    );
    expect(summary(failed)).toEqual([]);
    // The load ran across the switch: pages of both builds were served.
    const assetsSeen = new Set(outcomes.map((o) => o.path).filter((p) => p.includes("/assets/")));
    expect(assetsSeen.size).toBeGreaterThanOrEqual(2 * 3);

    const database = openDatabase({ sqliteFile: env.SQLITE_FILE as string });
    try {
      const stored = await database.db
        .selectFrom("inquiries")
        .select("comments")
        .where("comments", "like", `rolling upgrade ${runId} #%`)
        .execute();
      const accepted = sentInquiries.filter((s) => s.status >= 200 && s.status < 300);
      expect(stored.map((row) => row.comments).sort()).toEqual(
        accepted.map((s) => s.comments).sort(),
      );
    } finally {
      await database.db.destroy();
    }
  });

  it("lets through a body as large as the largest the site accepts (a subscriber list)", {
    timeout: 120_000,
  }, async () => {
    const boundary = "rolling-upgrade-boundary";
    const head = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="list.csv"\r\ncontent-type: text/csv\r\n\r\n`;
    const file = Buffer.alloc(IMPORT_LIMITS.maxMegabytes * MEGABYTE, "a");
    const body = Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const answer = await call("POST", IMPORT_ROUTES.run, {
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
    // Not signed in: the site itself refuses it, having been handed the whole body.
    expect(answer.status, answer.body.slice(0, 200)).not.toBe(413);
    expect(answer.body).toMatch(/^\{/);
  });
});
