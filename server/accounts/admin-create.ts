import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { users } from "../db/schema";
import type { AccountServices } from "./account-services";

/**
 * The first administrator (`npm run admin:create -- --email …`): an existing
 * user is promoted; otherwise one is created with the given password or a
 * generated one, which is returned once so it can be shown. Either way the
 * address counts as verified, since the operator vouches for it.
 */
export async function createAdmin(
  db: Database,
  accounts: AccountServices,
  input: { email: string; password?: string },
) {
  const email = input.email.trim().toLowerCase();
  let generatedPassword: string | null = null;
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!existing) {
    const password = input.password ?? randomBytes(12).toString("base64url");
    if (!input.password) generatedPassword = password;
    await accounts.auth.api.signUpEmail({ body: { email, password, name: "管理者" } });
  }
  await db.update(users).set({ role: "admin", emailVerified: true }).where(eq(users.email, email));
  return { email, created: !existing, generatedPassword };
}
