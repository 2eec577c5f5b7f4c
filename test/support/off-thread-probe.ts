/**
 * A worker for the tests of off-thread work: each task says what to do, and
 * some misbehave as hostile input can make a parser misbehave.
 */
export type ProbeTask =
  | { kind: "echo"; text: string }
  | { kind: "throw"; message: string }
  | { kind: "grow" }
  | { kind: "wait-for-flag"; flag: SharedArrayBuffer };

export default function probe(task: ProbeTask): string {
  switch (task.kind) {
    case "echo":
      return task.text.toUpperCase();
    case "throw":
      throw new Error(task.message);
    case "grow": {
      const kept: number[][] = [];
      for (;;) kept.push(new Array(1_000_000).fill(kept.length));
    }
    case "wait-for-flag": {
      // Blocks this thread until the test's thread sets the flag: were the
      // task on the test's thread, the flag could never be set.
      const flag = new Int32Array(task.flag);
      Atomics.wait(flag, 0, 0);
      return "released";
    }
  }
}
