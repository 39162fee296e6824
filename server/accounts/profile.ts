import { eq } from "drizzle-orm";
import type { ProfileInput } from "../../common/profile.schema";
import type { Database } from "../db/client";
import { accountProfiles, users } from "../db/schema";

export type AccountProfile = {
  name: string;
  nameKana: string;
  phone: string;
  gender: "female" | "male" | "other" | "unspecified";
  birthDate: string | null;
  completed: boolean;
};

export async function findProfile(db: Database, userId: string): Promise<AccountProfile | null> {
  const [row] = await db
    .select()
    .from(accountProfiles)
    .where(eq(accountProfiles.userId, userId))
    .limit(1);
  if (!row) return null;
  return {
    name: row.name,
    nameKana: row.nameKana,
    phone: row.phone,
    gender: row.gender as AccountProfile["gender"],
    birthDate: row.birthDate,
    completed: row.completed,
  };
}

/** Saves the profile; every required field is present, so it is complete from now on. */
export async function saveProfile(db: Database, userId: string, input: ProfileInput) {
  const values = { ...input, completed: true };
  await db.transaction(async (tx) => {
    await tx
      .insert(accountProfiles)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: accountProfiles.userId, set: values });
    // The identity's display name follows the profile (header, mails).
    await tx.update(users).set({ name: input.name }).where(eq(users.id, userId));
  });
}

/** The account record of GET /api/accounts/ (SPEC.md §7), or null when never saved. */
export async function accountRecord(db: Database, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      emailVerified: users.emailVerified,
      role: users.role,
      name: accountProfiles.name,
      nameKana: accountProfiles.nameKana,
      phone: accountProfiles.phone,
      gender: accountProfiles.gender,
      birthDate: accountProfiles.birthDate,
      completed: accountProfiles.completed,
      createdAt: users.createdAt,
      updatedAt: accountProfiles.updatedAt,
    })
    .from(users)
    .innerJoin(accountProfiles, eq(accountProfiles.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}
