import { afterEach, describe, expect, it } from "vitest";
import {
  type OffThread,
  OffThreadFailure,
  offThread,
} from "../../../src/server/platform/ops/off-thread.ts";
import type { ProbeTask } from "../../support/off-thread-probe.ts";

const PROBE = new URL("../../support/off-thread-probe.ts", import.meta.url);

describe("off-thread work", () => {
  let pool: OffThread<ProbeTask, string> | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  function start(options: { timeoutMs?: number; maxHeapMb?: number } = {}) {
    pool = offThread<ProbeTask, string>(PROBE, {
      what: "probing",
      timeoutMs: options.timeoutMs ?? 20_000,
      maxHeapMb: options.maxHeapMb ?? 64,
      log: console,
    });
    return pool;
  }

  it("answers with what the worker returns", async () => {
    expect(await start().run({ kind: "echo", text: "hello" })).toBe("HELLO");
  });

  it("runs the task on another thread, so this one stays free while it works", async () => {
    const flag = new SharedArrayBuffer(4);
    const task = start().run({ kind: "wait-for-flag", flag });
    // This thread gets here, and through a turn of its event loop, while
    // the task blocks its own thread on the flag.
    await new Promise((resolve) => setImmediate(resolve));
    Atomics.store(new Int32Array(flag), 0, 1);
    Atomics.notify(new Int32Array(flag), 0);
    expect(await task).toBe("released");
  });

  it("stops a task that runs past its time, and the next task gets a fresh worker", async () => {
    // Long enough for a worker to start on a loaded machine; the task
    // blocks its thread for good, as a parser caught in a loop would.
    const work = start({ timeoutMs: 3_000 });
    const never = new SharedArrayBuffer(4);
    const error = await work
      .run({ kind: "wait-for-flag", flag: never })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OffThreadFailure);
    expect(error).toMatchObject({
      reason: "timeout",
      message: "probing took longer than 3000 ms and was stopped",
    });
    expect(await work.run({ kind: "echo", text: "again" })).toBe("AGAIN");
  });

  it("stops a worker that outgrows its heap, and the next task gets a fresh worker", async () => {
    const work = start({ maxHeapMb: 32 });
    const error = await work.run({ kind: "grow" }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      reason: "memory",
      message: "probing needed more than 32 MiB and was stopped",
    });
    expect(await work.run({ kind: "echo", text: "after" })).toBe("AFTER");
  });

  it("passes on what a task threw", async () => {
    const error = await start()
      .run({ kind: "throw", message: "bad input" })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ reason: "error", message: "probing failed: bad input" });
  });
});
