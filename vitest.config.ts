import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

const integration = ["tests/integration/**/*.test.ts"];
const unit = [
  "app/**/*.test.ts",
  "common/**/*.test.ts",
  "server/**/*.test.ts",
  "tests/unit/**/*.test.ts",
  "vite-plugins/**/*.test.ts",
];
// `*.timezone.test.ts` run twice, once per process time zone, to prove that
// time code never depends on the server's TZ (STYLE.md); not in plain "unit".
const timezoneTests = [
  "app/**/*.timezone.test.ts",
  "common/**/*.timezone.test.ts",
  "server/**/*.timezone.test.ts",
];
const timezoneProject = (name: string, tz: string) => ({
  test: {
    name,
    include: timezoneTests,
    // Node reads TZ when the worker starts; tests/timezone-guard.ts fails
    // the run if the zone did not take effect.
    env: { TZ: tz, EXPECTED_TZ: tz },
    setupFiles: ["tests/timezone-guard.ts"],
    isolate: false,
  },
});

// Integration tests run on PGlite always, and once more on the PostgreSQL
// server when TEST_DATABASE_URL is set (.ci/run sets it).
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on CI's 2-core
    // machine, where the files wait on PGlite, PostgreSQL and Vite as much as
    // on the CPU. Two keep both cores busy (issue 38 §5).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: "unit",
          include: unit,
          exclude: [...configDefaults.exclude, ...timezoneTests],
          // Unit files keep no state between them: sharing a worker's modules halves their
          // time (18 s → 8 s), most of it spent importing the same modules again.
          isolate: false,
        },
      },
      timezoneProject("unit:tz-utc", "UTC"),
      timezoneProject("unit:tz-tokyo", "Asia/Tokyo"),
      {
        test: {
          name: "integration:pglite",
          include: integration,
          // Files in one worker share its module state, so withTestDatabase()
          // keeps one migrated PGlite per worker and empties it per file, and
          // the route tests share the worker's Vite server (tests/support/vite-server.ts).
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
                // As on PGlite, files share the worker's modules and Vite server;
                // each still gets a database of its own, copied from one migrated
                // for the run (tests/support/postgres-template.ts).
                isolate: false,
                globalSetup: ["tests/support/postgres-template.ts"],
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
