/**
 * What every command-line tool shares: `--help` prints its usage and ends
 * well; a wrong argument prints what was wrong and the usage, and ends
 * badly, without a stack trace; so does a refusal (a bad variable, a
 * database not ready). Only a fault nobody caused shows its stack.
 */
import { type ParseArgsConfig, parseArgs } from "node:util";
import { Refusal } from "../platform/refusal.ts";

export { Refusal };

/** The command line parsed by `config`, after `--help` has printed `usage` and ended the process. */
export function commandLine<T extends ParseArgsConfig>(usage: string, config: T) {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    console.log(usage);
    process.exit(0);
  }
  try {
    return parseArgs({ ...config, args, strict: true });
  } catch (error) {
    throw new Refusal(`${(error as Error).message}\n${usage}`);
  }
}

/**
 * Runs a tool's work, and ends the process with its refusal's message, or
 * the fault (as `describeFault` puts it, else with its stack), on failure.
 */
export function runCommand(
  work: () => Promise<void>,
  describeFault: (error: unknown) => unknown = (error) => error,
): void {
  work().catch((error: unknown) => {
    console.error(error instanceof Refusal ? error.message : describeFault(error));
    process.exit(1);
  });
}
