// Loaded first (`node --import`) by every Node process a test file starts while
// the run records its SQL paths (test/support/sql-paths.mjs).
import { startRecording } from "./sql-paths.mjs";

await startRecording();
