import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["shared/**/*.test.ts", "server/**/*.test.ts", "web/**/*.test.ts", "test-support/**/*.test.ts"],
    setupFiles: ["test-support/isolate-home.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
