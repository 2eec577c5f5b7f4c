import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    setupFiles: ["test/support/announce-engines.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
