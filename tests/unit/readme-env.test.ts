import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * README.md's configuration section names every environment variable the
 * code reads, and .env.example every one the app and its commands read: a
 * variable added to the code without a word in them fails here instead of
 * being found by the next operator who needs it.
 */
const ROOT = resolve(import.meta.dirname, "../..");

const SOURCE = /\.(ts|tsx|js|mjs)$/;
const TEST_FILE = /\.test\.tsx?$/;

function filesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

/** Names read as `process.env.NAME` or `process.env["NAME"]`. */
function envReads(files: string[]): Set<string> {
  const names = new Set<string>();
  const access = /process\.env(?:\.([A-Z][A-Z0-9_]*)|\[\s*["']([A-Z][A-Z0-9_]*)["']\s*\])/g;
  for (const file of files) {
    for (const match of read(file).matchAll(access)) names.add(match[1] ?? match[2] ?? "");
  }
  return names;
}

/** The keys of server/config.ts's Zod schema: the server reads its environment only through it. */
function configKeys(): string[] {
  const text = read("server/config.ts");
  const start = text.indexOf("const configSchema = z.object({");
  const end = text.indexOf("\n});", start);
  if (start < 0 || end < 0) throw new Error("configSchema not found in server/config.ts");
  return [...text.slice(start, end).matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1] ?? "");
}

// The app, its build and its commands.
const appFiles = [
  ...["server", "app", "common", "scripts", "vite-plugins"].flatMap(filesUnder),
  "vite.config.ts",
  "server.js",
  "react-router.config.ts",
  "drizzle.config.ts",
].filter((file) => !TEST_FILE.test(file));
// The test suites and the benchmarks.
const toolFiles = [
  ...["tests", "bench"]
    .flatMap(filesUnder)
    .filter((file) => file !== "tests/unit/readme-env.test.ts"),
  ...["server", "app", "common", "vite-plugins"]
    .flatMap(filesUnder)
    .filter((f) => TEST_FILE.test(f)),
  "playwright.config.ts",
  "vitest.config.ts",
];

/**
 * Set by the test harness for itself, never by a person: vitest.config.ts
 * sets TEST_DB_ENGINE per project and EXPECTED_TZ beside TZ; Playwright sets
 * TEST_PARALLEL_INDEX per worker.
 */
const HARNESS_INTERNAL = new Set(["TEST_DB_ENGINE", "EXPECTED_TZ", "TEST_PARALLEL_INDEX"]);

const appVariables = [...new Set([...configKeys(), ...envReads(appFiles)])].sort();
const toolVariables = [...envReads(toolFiles)]
  .filter((name) => !appVariables.includes(name) && !HARNESS_INTERNAL.has(name))
  .sort();

/** The whole name: RATE_LIMIT_PER_IP is not named by BOOKING_RATE_LIMIT_PER_IP. */
const names = (text: string, name: string) =>
  new RegExp(`(?<![A-Z0-9_])${name}(?![A-Z0-9_])`).test(text);

describe("environment variables are documented", () => {
  const readme = read("README.md");
  const example = read(".env.example");

  it("finds what the code reads (the scan itself works)", () => {
    expect(configKeys().length).toBeGreaterThan(30);
    expect(appVariables).toEqual(
      expect.arrayContaining(["DATABASE_URL", "S3_BUCKET", "SEED_SALONS"]),
    );
    expect(toolVariables).toEqual(expect.arrayContaining(["TEST_DATABASE_URL", "BENCH_SECONDS"]));
  });

  it("README.md names every variable the app and its commands read", () => {
    expect(appVariables.filter((name) => !names(readme, name))).toEqual([]);
  });

  it(".env.example has a line for every variable the app and its commands read", () => {
    const missing = appVariables.filter((name) => !new RegExp(`^#? ?${name}=`, "m").test(example));
    expect(missing).toEqual([]);
  });

  it("README.md names every variable the tests and benchmarks read", () => {
    expect(toolVariables.filter((name) => !names(readme, name))).toEqual([]);
  });
});
