/**
 * Vitest's setup file that records which SQL paths each test file runs, on
 * which engine (test/support/sql-paths.mjs), in the worker and in every Node
 * process the file starts: those inherit the file's name and a preload that
 * records in them too.
 */
import { relative, resolve } from "node:path";
import { beforeAll, expect } from "vitest";
import {
  recordStarted,
  SQL_PATHS_DIR_ENV,
  SQL_PATHS_FILE_ENV,
  startRecording,
} from "./sql-paths.mjs";

// From the package root, where the suite runs: a component test's module has no file URL.
const CHILD_PRELOAD = resolve("test/support/record-sql-paths-child.mjs");

if (process.env[SQL_PATHS_DIR_ENV]) {
  await startRecording();
  const preload = `--import=${CHILD_PRELOAD}`;
  const options = process.env.NODE_OPTIONS ?? "";
  if (!options.includes(preload)) process.env.NODE_OPTIONS = `${options} ${preload}`.trim();
  beforeAll(() => {
    const file = relative(process.cwd(), expect.getState().testPath ?? "");
    process.env[SQL_PATHS_FILE_ENV] = file;
    recordStarted(file);
  });
}
