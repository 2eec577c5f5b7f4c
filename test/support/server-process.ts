/** Runs the server entry point as a real child process, as `npm start` does. */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { stubSite } from "./app.ts";
import { nodeArgs } from "./entry.ts";

export interface ServerProcess {
  child: ChildProcess;
  origin: string;
  exited: Promise<number | null>;
  /** Resolves with the first log line (parsed JSON) for which `match` is true. */
  logged(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Stops reading the server's standard output (a log reader that stalls), and starts again. */
  pauseLogs(): void;
  resumeLogs(): void;
  /** Closes the reading end of the server's standard output (a log reader that goes away). */
  closeLogs(): void;
}

export interface RunOptions {
  /** Modules loaded before the server (`node --import`), e.g. test/support/throw-on-cue.ts. */
  preload?: string[];
  /**
   * The program the server runs under and its first arguments, ending with
   * the Node to run (test/deploy/syscall-filter.test.ts); this Node if none.
   */
  runner?: string[];
}

/** The child's environment besides the test's own; a variable given as undefined is left out. */
export type ServerEnv = Record<string, string | undefined>;

export function runServer(
  env: ServerEnv,
  { preload = [], runner = [process.execPath] }: RunOptions = {},
) {
  const [program = process.execPath, ...programArgs] = runner;
  return spawn(program, [...programArgs, ...nodeArgs("src/server/main.ts", preload)], {
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      // Test runners and browsers share the cores: shedding load is tested on
      // its own (test/platform/ops/overload.test.ts), not left to chance elsewhere.
      MAX_EVENT_LOOP_DELAY_MS: "0",
      // Tests post right after taking a token (test/platform/security/bot-defence.test.ts tests the minimum).
      FORM_MIN_SECONDS: "0",
      // Tests subscribe one address again and again (src/server/features/subscriptions/subscribe-cooldown.test.ts tests the cooldown).
      SUBSCRIBE_MAIL_COOLDOWN_MINUTES: "0",
      // No proxy to wait for (test/platform/ops/drain-on-stop.test.ts tests the delay).
      SHUTDOWN_DRAIN_DELAY_MS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

export async function startServer(
  env: ServerEnv,
  options: RunOptions = {},
): Promise<ServerProcess> {
  const child: ChildProcess = runServer({ STATIC_DIR: stubSite(), ...env }, options);
  const exited = once(child, "exit").then(([code]) => code as number | null);
  const lines: Record<string, unknown>[] = [];
  const waiting = new Set<() => void>();
  const reader = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  reader.on("line", (text) => {
    try {
      lines.push(JSON.parse(text) as Record<string, unknown>);
    } catch {
      return;
    }
    for (const check of waiting) check();
  });
  const stderr: string[] = [];
  child.stderr?.on("data", (chunk) => stderr.push(String(chunk)));

  const logged = (match: (line: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const check = () => {
        const line = lines.find(match);
        if (!line) return;
        waiting.delete(check);
        resolve(line);
      };
      waiting.add(check);
      check();
      exited.then((code) => {
        waiting.delete(check);
        const signal = child.signalCode ? ` (${child.signalCode})` : "";
        reject(new Error(`server exited with ${code}${signal} first: ${stderr.join("")}`));
      });
    });

  const listening = await logged((line) =>
    /Server listening at http:\/\/127\.0\.0\.1:\d+/.test(String(line.msg)),
  );
  const origin = /(http:\/\/127\.0\.0\.1:\d+)/.exec(String(listening.msg))?.[1] ?? "";
  return {
    child,
    origin,
    exited,
    logged,
    pauseLogs: () => reader.pause(),
    resumeLogs: () => reader.resume(),
    closeLogs: () => child.stdout?.destroy(),
  };
}

/** A client that keeps the XSRF cookie like a browser would. */
export async function clientFor(origin: string) {
  const first = await fetch(`${origin}/api/v1/xsrf`);
  const { token } = (await first.json()) as { token: string };
  const headers = { cookie: `XSRF-TOKEN=${token}`, "x-xsrf-token": token };
  return {
    headers,
    post: (path: string, body?: unknown) =>
      fetch(`${origin}${path}`, {
        method: "POST",
        headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
  };
}
