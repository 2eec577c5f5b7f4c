/**
 * deploy/consultancy-site.service is checked by systemd's own verifier:
 * every key known, the program there. A misspelt hardening option would
 * otherwise be ignored in silence, and the service run without it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const UNIT = "deploy/consultancy-site.service";
const VERIFIER = "/usr/bin/systemd-analyze";
const present = existsSync(VERIFIER);
if (!present) console.warn(`systemd unit check skipped: ${VERIFIER} is missing (Debian's systemd)`);

function verify(file: string) {
  const { status, stderr } = spawnSync(VERIFIER, ["verify", file], { encoding: "utf8" });
  return { status, stderr: stderr.trim() };
}

describe.skipIf(!present)("the systemd unit", () => {
  it("passes systemd-analyze verify with nothing to say", () => {
    expect(verify(UNIT)).toEqual({ status: 0, stderr: "" });
  });

  it("runs the server itself, as the process systemd signals", () => {
    expect(readFileSync(UNIT, "utf8")).toMatch(
      /^ExecStart=\/usr\/bin\/node build\/node\/src\/server\/main\.js$/m,
    );
  });

  it("the same check fails on a misspelt option, so it is a check", () => {
    const copy = join(mkdtempSync(join(tmpdir(), "unit-")), "consultancy-site.service");
    writeFileSync(copy, readFileSync(UNIT, "utf8").replace("ProtectSystem=", "ProtectSytem="));
    expect(verify(copy).stderr).toContain("Unknown key 'ProtectSytem'");
  });
});
