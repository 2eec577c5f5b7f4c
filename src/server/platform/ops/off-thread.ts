/**
 * Work on outside input that may be heavy (a mailbox's reports, a firm's
 * list) runs on a worker thread, so the event loop that answers visitors
 * never waits on it. A task that runs past its time, or a worker that
 * outgrows its heap, stops that worker alone: the task fails with an
 * OffThreadFailure, and the next task gets a fresh worker.
 *
 * The pool is piscina's (ADR 057). Its workers start when the first task
 * comes and end after a few idle seconds, so a server that never imports a
 * list keeps no thread for it.
 */
import { fileURLToPath } from "node:url";
import type { FastifyBaseLogger } from "fastify";
import { Piscina } from "piscina";

export interface OffThreadOptions {
  /** What the work is, for the failures' wording ("reading a report"). */
  what: string;
  /** Longest a task may take, from when it is asked for, before its worker is stopped. */
  timeoutMs: number;
  /** The most heap a worker may use (its old generation), in MiB. */
  maxHeapMb: number;
  /** Workers at most; tasks beyond them wait their turn. */
  maxThreads?: number;
  /** Where a worker's failure outside any task is told. */
  log: Pick<FastifyBaseLogger, "error">;
}

/** Why a task did not finish: its time ran out, its worker ran out of heap, or it threw. */
export class OffThreadFailure extends Error {
  constructor(
    readonly reason: "timeout" | "memory" | "error",
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "OffThreadFailure";
  }
}

export interface OffThread<Input, Output> {
  run(input: Input): Promise<Output>;
  /** Waits for the tasks under way, then ends the workers. */
  close(): Promise<void>;
}

/** An idle worker is kept this long for the next task (a mailbox's next message, say). */
const IDLE_MS = 5_000;

/**
 * The worker module beside `callerUrl` named `name` (its default export does
 * the work). The sources run as TypeScript (tests, `npm run dev`) and the
 * build as JavaScript: the module has the caller's own extension, and a
 * TypeScript worker is started with tsx's loader, as `npm run dev` is.
 */
export function siblingModule(callerUrl: string, name: string): URL {
  const extension = callerUrl.endsWith(".ts") ? ".ts" : ".js";
  return new URL(`./${name}${extension}`, callerUrl);
}

export function offThread<Input, Output>(
  module: URL,
  { what, timeoutMs, maxHeapMb, maxThreads = 1, log }: OffThreadOptions,
): OffThread<Input, Output> {
  const typeScript = module.pathname.endsWith(".ts");
  const pool = new Piscina({
    filename: fileURLToPath(module),
    minThreads: 0,
    maxThreads,
    idleTimeout: IDLE_MS,
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
    execArgv: typeScript ? ["--import", "tsx"] : [],
    recordTiming: false,
  });
  // A task's failure reaches its caller; a worker failing between tasks
  // has none, and unheard the pool's error would end the server. The next
  // task starts a fresh worker.
  pool.on("error", (error: unknown) => log.error({ err: error }, `${what}: a worker failed`));

  return {
    async run(input) {
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        return (await pool.run(input, { signal })) as Output;
      } catch (error) {
        throw failure(what, timeoutMs, maxHeapMb, signal.aborted, error);
      }
    },
    close: () => pool.close(),
  };
}

function failure(
  what: string,
  timeoutMs: number,
  maxHeapMb: number,
  timedOut: boolean,
  error: unknown,
): OffThreadFailure {
  if (timedOut) {
    return new OffThreadFailure(
      "timeout",
      `${what} took longer than ${timeoutMs} ms and was stopped`,
      {
        cause: error,
      },
    );
  }
  if ((error as { code?: unknown } | null)?.code === "ERR_WORKER_OUT_OF_MEMORY") {
    return new OffThreadFailure(
      "memory",
      `${what} needed more than ${maxHeapMb} MiB and was stopped`,
      {
        cause: error,
      },
    );
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new OffThreadFailure("error", `${what} failed: ${detail}`, { cause: error });
}
