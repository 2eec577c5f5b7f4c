/**
 * The built server as bench:load runs it: a child process with production
 * settings on a fixed port (so the load generator finds it again after a
 * restart), rate limits raised, its log and mail in a folder of the run, and
 * server-probe.mjs loaded to note event-loop delays and GC pauses. Its peak
 * resident memory is read from /proc (VmHWM) while it lives.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { closeSync, openSync, readFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const ENTRY = "build/node/src/server/main.js";
const PROBE = pathToFileURL("bench/support/server-probe.mjs").href;
const READY_TIMEOUT_MS = 60_000;
const MEMORY_SAMPLE_MS = 250;

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port to listen on");
  return address.port;
}

/**
 * Whether something listens on the port. The server listens only once it is
 * ready (start.ts); a connect completes in the kernel, whereas an HTTP probe
 * would queue behind the generator's connections waiting to be accepted.
 */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** A memory figure of /proc/<pid>/status in KiB; 0 once the process is gone. */
function statusKiB(pid: number, field: "VmHWM" | "VmRSS"): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

export interface LoadServerOptions {
  /** The database: DATABASE_URL or SQLITE_FILE. */
  databaseEnv: Record<string, string>;
  /** Where the log, the mail folder and the probe's file go. */
  dir: string;
}

export class LoadServer {
  readonly origin: string;
  readonly probeFile: string;
  private child: ChildProcess | undefined;
  private peakKiB = 0;
  private readonly env: Record<string, string>;
  private readonly sampler: NodeJS.Timeout;

  private constructor(
    private readonly port: number,
    private readonly options: LoadServerOptions,
  ) {
    this.origin = `http://127.0.0.1:${port}`;
    this.probeFile = join(options.dir, "probe.jsonl");
    this.env = {
      NODE_ENV: "production",
      PUBLIC_ORIGIN: this.origin,
      PORT: String(port),
      HOST: "127.0.0.1",
      // The same secret across restarts, as a deployment has: tokens stay valid.
      UNSUBSCRIBE_SECRET: randomBytes(32).toString("hex"),
      // Every request comes from 127.0.0.1: the per-address limit would refuse nearly all.
      RATE_LIMIT_PER_MINUTE: "100000000",
      // The generator posts right after taking its token, which the trap for
      // bots takes for a script (answered as success, stored nowhere).
      FORM_MIN_SECONDS: "0",
      MAILBOX_DIR: join(options.dir, "mail"),
      LOAD_PROBE_FILE: this.probeFile,
      ...options.databaseEnv,
    };
    this.sampler = setInterval(() => this.notePeak(), MEMORY_SAMPLE_MS);
  }

  static async start(options: LoadServerOptions): Promise<LoadServer> {
    const server = new LoadServer(await freePort(), options);
    await server.launch();
    return server;
  }

  /** The resident set of its current process now, in MiB. */
  get rssMiB(): number {
    return this.child?.pid ? statusKiB(this.child.pid, "VmRSS") / 1024 : 0;
  }

  /** Largest peak resident set of any of its processes so far, in MiB. */
  get peakRssMiB(): number {
    this.notePeak();
    return this.peakKiB / 1024;
  }

  private notePeak(): void {
    if (this.child?.pid) this.peakKiB = Math.max(this.peakKiB, statusKiB(this.child.pid, "VmHWM"));
  }

  /** Starts a process (on the same port and database) and waits until it listens. */
  async launch(): Promise<void> {
    const log = openSync(join(this.options.dir, "server.log"), "a");
    const { MAX_EVENT_LOOP_DELAY_MS: _default, ...inherited } = process.env;
    this.child = spawn(process.execPath, ["--import", PROBE, ENTRY], {
      env: { ...inherited, ...this.env },
      stdio: ["ignore", log, log],
    });
    closeSync(log);
    const exited = once(this.child, "exit");
    const deadline = performance.now() + READY_TIMEOUT_MS;
    while (performance.now() < deadline) {
      const answered = await Promise.race([
        listening(this.port),
        exited.then(() => {
          throw new Error(`the server exited; see ${join(this.options.dir, "server.log")}`);
        }),
      ]);
      if (answered) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the server did not answer on ${this.origin} within ${READY_TIMEOUT_MS} ms`);
  }

  /** `kill -9`: no shutdown, no flush, whatever was in flight is cut. */
  async crash(): Promise<void> {
    await this.stop("SIGKILL");
  }

  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.notePeak();
    const exited = once(child, "exit");
    child.kill(signal);
    await exited;
  }

  async close(): Promise<void> {
    clearInterval(this.sampler);
    await this.stop();
  }
}
