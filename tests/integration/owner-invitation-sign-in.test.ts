import { beforeAll, describe, expect, it } from "vitest";
import * as invitationRoute from "../../app/routes/account.invitation";
import { getCurrentUser } from "../../server/accounts/current-user";
import { DEVICE_COOKIE } from "../../server/accounts/device-cookie";
import { ownerInviteSchema } from "../../server/admin/admin.schema";
import { inviteOwner } from "../../server/invitations/invitations.server";
import { browser, outboxFor, uniqueEmail } from "../support/accounts";
import { buildUser } from "../support/builders";
import { createRouteApp } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;

beforeAll(() => {
  env = createRouteApp(database, [{ path: "/account/invitation", module: invitationRoute }]);
});

/** A new owner invited by an admin now: their address and the token from the mail. */
async function invited() {
  const admin = await buildUser(database.db, { role: "admin", email: uniqueEmail("admin") });
  const data = ownerInviteSchema.parse({
    name: "佐藤 美咲",
    nameKana: "さとう みさき",
    email: uniqueEmail("owner"),
    phone: "090-1111-2222",
    salonIds: [],
  });
  await inviteOwner(
    database.db,
    env.accounts.mailer,
    data,
    admin,
    new Date(),
    env.config.PUBLIC_URL,
  );
  const [mail] = (await outboxFor(database.db, data.email)).slice(-1);
  const link = new URL(mail?.text.match(/https?:\/\/\S+/)?.[0] ?? "http://x");
  return { email: data.email, token: link.searchParams.get("token") ?? "" };
}

const setPassword = (b: ReturnType<typeof browser>, token: string, password: string) =>
  b.request("/account/invitation", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token, password, passwordConfirm: password }).toString(),
  });

describe("a new owner who sets the password from the invitation", () => {
  it("is signed in at once and lands on their own page", async () => {
    const { email, token } = await invited();
    const b = browser(env.app);
    const answer = await setPassword(b, token, "owner-pass1");
    expect(answer.status).toBe(302);
    // The back office (backOfficeLink), which opens on their salons' 今日.
    expect(answer.headers.get("location")).toBe("/owner");
    const user = await getCurrentUser(b.toRequest("/"), {
      db: database.db,
      accounts: env.accounts,
    });
    expect(user).toMatchObject({ email, role: "owner", emailVerified: true });
    // A browser the owner signed in with: strangers' guesses will not lock it out.
    expect(b.jar.has(DEVICE_COOKIE)).toBe(true);
  });

  it("cannot be signed in twice with the spent link", async () => {
    const { token } = await invited();
    await setPassword(browser(env.app), token, "owner-pass1");
    const again = browser(env.app);
    const answer = await setPassword(again, token, "other-pass2");
    expect(answer.status).toBe(410);
    expect(
      await getCurrentUser(again.toRequest("/"), { db: database.db, accounts: env.accounts }),
    ).toBeNull();
  });
});
