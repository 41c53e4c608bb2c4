import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "harness/**/*.test.ts",
      "sandbox/**/*.test.ts",
      "tasks/**/*.test.ts",
      "tests/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "tests/fixtures/**", "generations/**"],
    pool: "forks",
    testTimeout: 120_000,
    hookTimeout: 180_000,
    globalSetup: ["tests/support/global-setup.ts"],
  },
});
