import { eq } from "drizzle-orm";
import type { ProfileInput } from "../../common/profile.schema";
import type { Database } from "../db/client";
import { users } from "../db/schema";
import type { AccountServices } from "./account-services";
import type { Role } from "./current-user";
import { saveProfile } from "./profile";

/**
 * A user who can use the whole site at once: the password hashed and stored
 * by Better Auth itself (as sign-up does), the address verified and the
 * profile completed, without a verification mail. For the demo accounts of
 * the development seed and the e2e login; never reached from a public form.
 */
export async function createReadyAccount(
  db: Database,
  accounts: AccountServices,
  input: { email: string; password: string; role: Role; profile: ProfileInput },
) {
  const auth = await accounts.auth.$context;
  const email = input.email.trim().toLowerCase();
  const hash = await auth.password.hash(input.password);
  const user = await auth.internalAdapter.createUser(
    { email, name: input.profile.name, emailVerified: true },
    { method: "email-password" },
  );
  await auth.internalAdapter.linkAccount({
    userId: user.id,
    providerId: "credential",
    accountId: user.id,
    password: hash,
  });
  // The admin plugin does not take a role at creation; set it as the operator would.
  await db.update(users).set({ role: input.role }).where(eq(users.id, user.id));
  await saveProfile(db, user.id, input.profile);
  return { id: user.id, email };
}
