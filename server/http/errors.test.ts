import { isRouteErrorResponse, type ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { DomainError } from "../errors/domain-error";
import { withDomainErrors } from "./errors";

/** What a wrapped route function threw, in the shape React Router reads. */
async function thrownBy(fn: () => unknown) {
  try {
    await fn();
  } catch (thrown) {
    return thrown as { type?: string; data?: unknown; init?: { status?: number } };
  }
  throw new Error("did not throw");
}

describe("withDomainErrors", () => {
  const slotTaken = new DomainError("slot_taken", "この時間は予約できません。", 409);
  const fault = new Error("bug");
  const build = {
    routes: {
      "routes/booking": {
        id: "routes/booking",
        path: "booking",
        module: {
          loader: async () => {
            throw slotTaken;
          },
          action: async () => {
            throw fault;
          },
          middleware: [
            async () => {
              throw slotTaken;
            },
          ],
          default: () => null,
        },
      },
    },
  } as unknown as ServerBuild;

  it("turns a DomainError of a loader, action or middleware into data() with its status", async () => {
    const wrapped = withDomainErrors(build);
    const module = wrapped.routes["routes/booking"]?.module;
    const loaded = await thrownBy(() => module?.loader?.({} as never));
    expect(loaded.type).toBe("DataWithResponseInit");
    expect(loaded.init?.status).toBe(409);
    expect(loaded.data).toEqual({ code: "slot_taken", message: "この時間は予約できません。" });
    const middleware = await thrownBy(() =>
      module?.middleware?.[0]?.({} as never, async () => new Response()),
    );
    expect(middleware.init?.status).toBe(409);
    // Anything else stays a fault for React Router's 500 and handleError.
    expect(await thrownBy(() => module?.action?.({} as never))).toBe(fault);
    expect(isRouteErrorResponse(loaded)).toBe(false);
  });

  it("wraps a build once, and leaves the original untouched", () => {
    expect(withDomainErrors(build)).toBe(withDomainErrors(build));
    expect(withDomainErrors(build)).not.toBe(build);
  });
});
