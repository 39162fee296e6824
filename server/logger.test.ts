import { DrizzleQueryError } from "drizzle-orm";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger, describeError, routeConsoleTo, safeErrorMessage } from "./logger";

function capture(options?: Parameters<typeof createLogger>[3]) {
  const lines: string[] = [];
  const log = createLogger("debug", { app: "test" }, (line) => lines.push(line), options);
  const last = () => JSON.parse(lines.at(-1) ?? "null") as Record<string, unknown>;
  return { log, lines, last };
}

/** A PostgreSQL error as node-postgres builds it from the server's answer. */
function databaseError(message: string, fields: Record<string, string>) {
  const error = new pg.DatabaseError(message, 0, "error");
  error.severity = "ERROR";
  Object.assign(error, fields);
  return error;
}

describe("createLogger", () => {
  it("writes one JSON line with time, level, message and fields; drops lower levels", () => {
    const lines: string[] = [];
    const log = createLogger("warn", { app: "test" }, (line) => lines.push(line));
    log.info("not written");
    log.warn("written", { count: 2 });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({
      level: "warn",
      msg: "written",
      app: "test",
      count: 2,
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it("redacts every string of the line, nested ones too, and describes Errors in fields", () => {
    const { log, last } = capture();
    log.info("mail to hanako@example.jp", {
      url: "/api/auth/verify-email?token=abc",
      nested: { phones: ["090-1234-5678"] },
      error: new Error("rejected: taro@example.jp"),
    });
    expect(last()).toMatchObject({
      msg: "mail to [email]",
      url: "/api/auth/verify-email?token=[token]",
      nested: { phones: ["[phone]"] },
      error: { name: "Error", message: "rejected: [email]" },
    });
  });

  it("leaves the addresses it is told are public (the demo accounts)", () => {
    const { log, last } = capture({ publicEmails: ["demo-user@example.jp"] });
    log.info("demo accounts", { accounts: ["demo-user@example.jp", "someone@example.jp"] });
    expect(last().accounts).toEqual(["demo-user@example.jp", "[email]"]);
  });
});

describe("describeError", () => {
  const pgError = databaseError(
    'duplicate key value violates unique constraint "users_email_unique"',
    {
      code: "23505",
      constraint: "users_email_unique",
      table: "users",
      detail: "Key (email)=(hanako@example.jp) already exists.",
    },
  );
  const drizzleError = new DrizzleQueryError(
    'insert into "users" ("name", "email") values ($1, $2)',
    ["山田 花子", "hanako@example.jp"],
    pgError,
  );

  it("describes a failed query by SQLSTATE, constraint and table, without its parameters or detail", () => {
    const fields = describeError(drizzleError);
    expect(fields).toMatchObject({
      errorName: "DrizzleQueryError",
      error: 'Failed query: insert into "users" ("name", "email") values ($1, $2)',
      sqlState: "23505",
      constraint: "users_email_unique",
      table: "users",
      cause: {
        name: "error",
        message: 'duplicate key value violates unique constraint "users_email_unique"',
      },
    });
    const text = JSON.stringify(fields);
    expect(text).not.toContain("山田");
    expect(text).not.toContain("hanako");
    expect(String(fields.stack)).toMatch(/^DrizzleQueryError: Failed query: .*\n\s+at /);
  });

  it("drops the input value PostgreSQL quotes in its own message", () => {
    const fields = describeError(
      databaseError('invalid input syntax for type uuid: "山田 花子"', { code: "22P02" }),
    );
    expect(fields).toMatchObject({
      sqlState: "22P02",
      error: 'invalid input syntax for type uuid: "[value]"',
    });
  });

  it("keeps other errors' messages (redacted by the logger) and their causes", () => {
    const error = new Error("outer", { cause: new TypeError("inner") });
    expect(describeError(error)).toMatchObject({
      error: "outer",
      errorName: "Error",
      cause: { name: "TypeError", message: "inner" },
    });
    expect(describeError("thrown text")).toEqual({ error: "thrown text" });
    // A system error's code is not an SQLSTATE.
    const system = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
    expect(describeError(system).sqlState).toBeUndefined();
  });

  it("gives a storable message with neither parameters nor addresses", () => {
    expect(safeErrorMessage(drizzleError)).toBe(
      'Failed query: insert into "users" ("name", "email") values ($1, $2)',
    );
    expect(safeErrorMessage(new Error("550 rejected hanako@example.jp"))).toBe(
      "550 rejected [email]",
    );
  });
});

describe("routeConsoleTo", () => {
  let restore: (() => void) | undefined;
  afterEach(() => restore?.());

  it("turns what libraries print into our redacted JSON lines, until restored", () => {
    const { log, lines, last } = capture();
    const original = console.warn;
    restore = routeConsoleTo(log);
    console.warn("[Better Auth]: Sign-up attempt for existing email: %s", "hanako@example.jp");
    expect(last()).toMatchObject({
      level: "warn",
      source: "console",
      msg: "[Better Auth]: Sign-up attempt for existing email: [email]",
    });
    console.error("failed", drizzleErrorFor("09012345678"));
    expect(last()).toMatchObject({ level: "error", msg: "failed", errorName: "DrizzleQueryError" });
    expect(lines.join("\n")).not.toContain("09012345678");
    restore();
    restore = undefined;
    expect(console.warn).toBe(original);
  });
});

function drizzleErrorFor(phone: string) {
  return new DrizzleQueryError("update x set phone = $1", [phone], new Error("boom"));
}
