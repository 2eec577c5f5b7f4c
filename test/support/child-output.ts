/** What a child process printed and how it ended, once it has. */
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";

export interface ChildOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Collects the child's standard output and error until it exits. With
 * `limitMs`, a child still running then is killed, so a test that expected
 * it to stop fails instead of hanging.
 */
export async function childOutput(child: ChildProcess, limitMs?: number): Promise<ChildOutput> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => {
    stdout += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const stop = limitMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), limitMs);
  const [code] = (await once(child, "exit")) as [number | null];
  clearTimeout(stop);
  return { code, stdout, stderr };
}
