import { defineConfig } from "vitest/config";

const integration = ["tests/integration/**/*.test.ts"];

// Integration tests run on PGlite always, and once more on the PostgreSQL
// server when TEST_DATABASE_URL is set (.ci/run sets it).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: [
            "app/**/*.test.ts",
            "common/**/*.test.ts",
            "server/**/*.test.ts",
            "tests/unit/**/*.test.ts",
            "vite-plugins/**/*.test.ts",
          ],
        },
      },
      {
        test: {
          name: "integration:pglite",
          include: integration,
          // Files in one worker share its module state, so withTestDatabase()
          // keeps one migrated PGlite per worker and empties it per file.
          isolate: false,
          env: { TEST_DB_ENGINE: "pglite" },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              test: {
                name: "integration:postgres",
                include: [...integration, "tests/integration-postgres/**/*.test.ts"],
                env: { TEST_DB_ENGINE: "postgres" },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
