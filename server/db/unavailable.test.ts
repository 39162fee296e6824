import net from "node:net";
import { APIError } from "better-auth/api";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./unavailable";

/** A real refused connection: a port that was just free. */
async function refusedConnectionError() {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const client = new pg.Client({ host: "127.0.0.1", port, user: "nobody" });
  return client.connect().then(
    () => new Error("connected"),
    (error: unknown) => error,
  );
}

/** PostgreSQL's error as node-postgres gives it. */
const databaseError = (code: string, message: string) =>
  Object.assign(new Error(message), { code, severity: "FATAL" });

describe("isDatabaseUnavailable", () => {
  it("a refused connection, as is and wrapped by Drizzle and by Better Auth's session lookup", async () => {
    const refused = await refusedConnectionError();
    expect(isDatabaseUnavailable(refused)).toBe(true);
    const drizzle = new Error("Failed query: select 1", { cause: refused });
    expect(isDatabaseUnavailable(drizzle)).toBe(true);
    const auth = APIError.from(
      "INTERNAL_SERVER_ERROR",
      { code: "FAILED_TO_GET_SESSION", message: "Failed to get session" },
      { cause: drizzle },
    );
    expect(isDatabaseUnavailable(auth)).toBe(true);
  });

  it("a lost connection and a failover's SQLSTATEs", () => {
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    for (const code of ["57P01", "57P03", "08006", "25006"]) {
      expect(isDatabaseUnavailable(databaseError(code, "x")), code).toBe(true);
    }
  });

  it("not a fault of the query or of the code", () => {
    expect(isDatabaseUnavailable(databaseError("23505", "duplicate key"))).toBe(false);
    expect(isDatabaseUnavailable(databaseError("42P01", "relation does not exist"))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("x is undefined"))).toBe(false);
    const refusedSession = APIError.from("UNAUTHORIZED", {
      code: "FAILED_TO_GET_SESSION",
      message: "Failed to get session",
    });
    expect(isDatabaseUnavailable(refusedSession)).toBe(false);
    expect(isDatabaseUnavailable("Connection terminated")).toBe(false);
  });
});
