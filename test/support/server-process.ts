/** Runs the server entry point as a real child process, as `npm start` does. */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { stubSite } from "./app.ts";

export interface ServerProcess {
  child: ChildProcess;
  origin: string;
  exited: Promise<number | null>;
}

export function runServer(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = runServer({ STATIC_DIR: stubSite(), ...env });
  const exited = once(child, "exit").then(([code]) => code as number | null);
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const stderr: string[] = [];
  child.stderr?.on("data", (chunk) => stderr.push(String(chunk)));
  const origin = await new Promise<string>((resolve, reject) => {
    lines.on("line", (line) => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (match?.[1]) resolve(match[1]);
    });
    exited.then((code) => reject(new Error(`server exited with ${code}: ${stderr.join("")}`)));
  });
  return { child, origin, exited };
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
