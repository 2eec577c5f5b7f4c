/**
 * What every command-line tool shares: `--help` prints its usage and ends
 * well; a wrong argument prints what was wrong and the usage, and ends
 * badly, without a stack trace; so does a refusal (a bad variable, a
 * database not ready). Only a fault nobody caused shows its stack.
 */
import { type ParseArgsConfig, parseArgs } from "node:util";
import { ConfigError } from "../platform/config.ts";

/** A refusal the person at the terminal can act on: its message is all they see. */
export class Refusal extends Error {}

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

/** Runs a tool's work, and ends the process with its refusal's message, or the fault, on failure. */
export function runCommand(work: () => Promise<void>): void {
  work().catch((error: unknown) => {
    const refused = error instanceof Refusal || error instanceof ConfigError;
    console.error(refused ? error.message : error);
    process.exit(1);
  });
}
