import { formatWithOptions } from "node:util";
import { type RedactionOptions, redactText } from "./log-redaction";

/**
 * One JSON object per line on stdout: easy to grep locally and to ship to
 * any log store. Levels below the configured one are dropped. Every string
 * of a line passes redactText and every Error describeError, whoever logs
 * it (our code, Better Auth through server/accounts/auth-logger.ts), so no
 * mail address, phone number, token or query parameter reaches the log.
 */
const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof levels;
export type LogFields = Record<string, unknown>;

export type Logger = {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
};

export type LoggerOptions = {
  /** Addresses printed on purpose (the demo accounts): left as they are. */
  publicEmails?: readonly string[];
};

export function createLogger(
  level: LogLevel = "info",
  base: LogFields = {},
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  options: LoggerOptions = {},
): Logger {
  const redaction: RedactionOptions = { publicEmails: new Set(options.publicEmails ?? []) };
  const emit = (at: Exclude<LogLevel, "silent">, msg: string, fields?: LogFields) => {
    if (levels[at] < levels[level]) return;
    const line = safeValue({ msg, ...base, ...fields }, redaction, 0) as LogFields;
    write(JSON.stringify({ time: new Date().toISOString(), level: at, ...line }));
  };
  return {
    debug: (msg, fields) => emit("debug", msg, fields),
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
    child: (fields) => createLogger(level, { ...base, ...fields }, write, options),
  };
}

const MAX_DEPTH = 6;

/** A copy of a field value that is safe to write: strings redacted, errors described. */
function safeValue(value: unknown, redaction: RedactionOptions, depth: number): unknown {
  if (typeof value === "string") return redactText(value, redaction);
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "[nested too deep]";
  if (value instanceof Error) return safeValue(errorSummary(value, 0), redaction, depth + 1);
  if (value instanceof Date) return value;
  if (Array.isArray(value)) return value.map((item) => safeValue(item, redaction, depth + 1));
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") return safeValue(toJSON.call(value), redaction, depth + 1);
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, safeValue(item, redaction, depth + 1)]),
  );
}

type ErrorSummary = {
  name: string;
  message: string;
  /** SQLSTATE of a database error (23505 unique, 23503 foreign key …). */
  sqlState?: string;
  constraint?: string;
  table?: string;
  column?: string;
  stack?: string;
  cause?: ErrorSummary | string;
};

/** A PostgreSQL error as node-postgres gives it (both engines: PGlite speaks the protocol too). */
type DatabaseErrorLike = Error & {
  code: string;
  constraint?: unknown;
  table?: unknown;
  column?: unknown;
};

function isDatabaseError(value: unknown): value is DatabaseErrorLike {
  if (!(value instanceof Error)) return false;
  const code = (value as { code?: unknown }).code;
  // pg's DatabaseError has a severity; Node's own errors (EPIPE) have no SQLSTATE.
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && "severity" in value;
}

/** Drizzle's wrapper: its message carries the query's parameters (customer names, addresses). */
function isDrizzleQueryError(value: Error): value is Error & { query: string } {
  const candidate = value as { query?: unknown; params?: unknown };
  return typeof candidate.query === "string" && Array.isArray(candidate.params);
}

function databaseErrorIn(error: Error): DatabaseErrorLike | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (isDatabaseError(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const MAX_QUERY = 2000;

/**
 * The message without values: a Drizzle error keeps its query and drops its
 * parameters; PostgreSQL's own message keeps the constraint and drops a
 * quoted input value (`invalid input syntax for type uuid: "…"`). The
 * error's `detail` ("Key (email)=(…) already exists"), `hint`, `where` and
 * `params` are never read.
 */
function messageOf(error: Error): string {
  if (isDrizzleQueryError(error)) {
    const query =
      error.query.length > MAX_QUERY ? `${error.query.slice(0, MAX_QUERY)}…` : error.query;
    return `Failed query: ${query}`;
  }
  if (isDatabaseError(error)) return error.message.replace(/(:\s*)".*"$/s, '$1"[value]"');
  return error.message;
}

function errorSummary(error: Error, depth: number): ErrorSummary {
  const name = isDrizzleQueryError(error) ? "DrizzleQueryError" : error.name;
  const message = messageOf(error);
  const summary: ErrorSummary = { name, message };
  const database = databaseErrorIn(error);
  if (database) {
    summary.sqlState = database.code;
    if (typeof database.constraint === "string") summary.constraint = database.constraint;
    if (typeof database.table === "string") summary.table = database.table;
    if (typeof database.column === "string") summary.column = database.column;
  }
  // The stack's first lines repeat the message (with Drizzle's parameters): frames only.
  if (depth === 0 && error.stack) {
    const frames = error.stack.split("\n").filter((line) => /^\s+at /.test(line));
    summary.stack = [`${name}: ${message}`, ...frames].join("\n");
  }
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error && depth < 3) summary.cause = errorSummary(cause, depth + 1);
  else if (cause !== undefined && cause !== null && !(cause instanceof Error)) {
    summary.cause = String(cause);
  }
  return summary;
}

/**
 * Error details for the log only; never sent to the browser. A database
 * error is described by its SQLSTATE, constraint and table, not by the
 * values it was given.
 */
export function describeError(error: unknown): LogFields {
  if (!(error instanceof Error)) return { error: String(error) };
  const { name, message, ...rest } = errorSummary(error, 0);
  return { error: message, errorName: name, ...rest };
}

/** The message of describeError, for a place that stores it (a job's last error). */
export function safeErrorMessage(error: unknown): string {
  const message = error instanceof Error ? messageOf(error) : String(error);
  return redactText(message);
}

const consoleLevels = {
  debug: "debug",
  log: "info",
  info: "info",
  warn: "warn",
  error: "error",
} as const;

/**
 * Sends what libraries print on the console (React Router's warnings,
 * Better Auth's start-up checks, anything else) through `log`, so the
 * server's output is our JSON lines only and redacted like them. Returns
 * the function that puts the console back.
 */
export function routeConsoleTo(log: Logger): () => void {
  const target = log.child({ source: "console" });
  const methods = Object.keys(consoleLevels) as (keyof typeof consoleLevels)[];
  const original = methods.map((method) => [method, console[method]] as const);
  for (const method of methods) {
    const level = consoleLevels[method];
    console[method] = (...args: unknown[]) => {
      const error = args.find((arg) => arg instanceof Error);
      const rest = args.filter((arg) => arg !== error);
      target[level](
        formatWithOptions({ colors: false }, ...rest),
        error ? describeError(error) : {},
      );
    };
  }
  return () => {
    for (const [method, write] of original) console[method] = write;
  };
}
