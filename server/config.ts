import { z } from "zod";

/**
 * Every setting the server reads from the environment, parsed once at start
 * so a bad value stops the process with a clear message instead of failing
 * on some later request. `.env.example` documents each one.
 */
const configSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  /** Empty: PGlite in ./data/db. `memory://`: throwaway PGlite. `postgres://…`: a server. */
  DATABASE_URL: z.string().default("./data/db"),
  /** Absolute origin used for canonical URLs, Open Graph and mail links. */
  PUBLIC_URL: z.url().default("http://localhost:3000"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /** Seconds to wait for in-flight requests on SIGTERM before closing anyway. */
  SHUTDOWN_TIMEOUT: z.coerce.number().int().min(1).default(10),
});

export type Config = z.infer<typeof configSchema> & { isProduction: boolean };

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, value]) => value !== "")),
  );
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${problems.join("\n")}`);
  }
  return { ...parsed.data, isProduction: parsed.data.NODE_ENV === "production" };
}
