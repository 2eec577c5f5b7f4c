/**
 * The log is readable where a person reads it, at a terminal, and JSON lines
 * where a program does, a pipe or a file. The terminal is a real one:
 * util-linux's `script` runs the logger on a pseudo-terminal.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { childOutput } from "../../support/child-output.ts";

const SCRIPT = "/usr/bin/script";
const hasScript = existsSync(SCRIPT);
if (!hasScript) console.warn(`Terminal log test skipped: ${SCRIPT} (Debian's bsdutils) is missing`);

// A test file, in no build: tsx runs it from its source.
const LOGGER = ["--import", "tsx", "test/support/log-a-line.ts"];

describe("the server's log", () => {
  it.skipIf(!hasScript)(
    "is readable at a terminal: the time of day, the level and the message, the fields below, addresses masked",
    async () => {
      const command = [process.execPath, ...LOGGER].map((part) => `'${part}'`).join(" ");
      const { code, stdout } = await childOutput(
        spawn(SCRIPT, ["--quiet", "--return", "--command", command, "/dev/null"], {
          env: { ...process.env, NO_COLOR: "1" },
          stdio: ["ignore", "pipe", "pipe"],
        }),
      );
      expect(code).toBe(0);
      const lines = stdout.split("\r\n");
      expect(lines[0]).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: a line for the reader$/);
      expect(lines.slice(1, 3)).toEqual(["    orders: 3", '    to: "***@firm.example"']);
    },
  );

  it("is JSON lines in a pipe, the time in epoch milliseconds", async () => {
    const { code, stdout } = await childOutput(
      spawn(process.execPath, LOGGER, { stdio: ["ignore", "pipe", "pipe"] }),
    );
    expect(code).toBe(0);
    const line = JSON.parse(stdout) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 30,
      msg: "a line for the reader",
      orders: 3,
      to: "***@firm.example",
    });
    expect(typeof line.time).toBe("number");
  });
});
