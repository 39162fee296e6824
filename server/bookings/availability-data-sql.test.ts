import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const MIGRATIONS = new URL("../db/migrations/", import.meta.url);
const SOURCE = new URL("./availability-data.sql", import.meta.url);

/**
 * The `CREATE OR REPLACE FUNCTION booking_availability_data … $tag$;`
 * statement of a SQL text (the body's comments included), or null.
 */
function functionStatement(text: string): string | null {
  const match =
    /CREATE OR REPLACE FUNCTION booking_availability_data\s*\([\s\S]*?\bAS\s+(\$\w*\$)[\s\S]*?\1;/.exec(
      text,
    );
  return match ? match[0] : null;
}

const normalised = (statement: string) => statement.replace(/\s+/g, " ").trim();

/** Where two normalised statements first differ, a little of each (the whole is ~4,000 characters). */
function firstDifference(actual: string, expected: string): string | null {
  if (actual === expected) return null;
  let at = 0;
  while (actual[at] === expected[at]) at++;
  const around = (text: string) => `…${text.slice(Math.max(0, at - 60), at + 60)}…`;
  return `at character ${at}:\n  migration: ${around(actual)}\n  source:    ${around(expected)}`;
}

/** The migrations in the order the migrator runs them (its journal). */
function migrationsInOrder(): { tag: string; text: string }[] {
  const journal = JSON.parse(readFileSync(new URL("meta/_journal.json", MIGRATIONS), "utf8")) as {
    entries: { idx: number; tag: string }[];
  };
  return [...journal.entries]
    .sort((a, b) => a.idx - b.idx)
    .map(({ tag }) => ({ tag, text: readFileSync(new URL(`${tag}.sql`, MIGRATIONS), "utf8") }));
}

describe("booking_availability_data", () => {
  it("is defined by the latest migration that defines it exactly as availability-data.sql has it", () => {
    const source = functionStatement(readFileSync(SOURCE, "utf8"));
    expect(source, "availability-data.sql defines the function").not.toBeNull();
    const defining = migrationsInOrder().filter(({ text }) => functionStatement(text) !== null);
    const latest = defining.at(-1);
    expect(latest, "a migration defines the function").toBeDefined();
    expect(
      firstDifference(
        normalised(functionStatement(latest?.text ?? "") ?? ""),
        normalised(source ?? ""),
      ),
      `${latest?.tag}.sql differs from server/bookings/availability-data.sql: copy the file's statement into a new migration`,
    ).toBeNull();
  });

  it("reads the statement a migration holds, up to its own closing tag", () => {
    const statement = functionStatement(
      "select 1;\nCREATE OR REPLACE FUNCTION booking_availability_data(\n  p uuid\n) RETURNS json\nAS $x$\nBEGIN RETURN '$y$'; END\n$x$;\n-- after",
    );
    expect(statement).toBe(
      "CREATE OR REPLACE FUNCTION booking_availability_data(\n  p uuid\n) RETURNS json\nAS $x$\nBEGIN RETURN '$y$'; END\n$x$;",
    );
  });
});
