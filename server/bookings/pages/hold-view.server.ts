import { and, asc, eq, gt, isNull, ne } from "drizzle-orm";
import type { Database } from "../../db/client";
import { bookingMenus, bookings, coupons, staff } from "../../db/schema";
import { type HoldViewer, hashHoldBrowserKey, holdBelongsTo } from "../hold-browser.server";

/**
 * The hold step of the flow reads a held row directly: a guest's hold has
 * no user yet (the visitor signs in after picking the time), so the
 * history queries, which are per user, cannot show it.
 */
export type HoldRow = {
  id: string;
  salonId: string;
  userId: string | null;
  holderKeyHash: string | null;
  status: string;
  holdExpiresAt: Date | null;
  startsAt: Date;
  endsAt: Date;
  totalPrice: number;
  /** 指名料 included in totalPrice (decision 0047). */
  nominationFee: number;
  staffRequested: boolean;
  staffSlug: string;
  staffName: string;
  couponId: string | null;
  couponTitle: string | null;
  /** The coupon is 学割: the confirm step asks 「学生です」 (decision 0087). */
  couponStudentOnly: boolean;
  /** Contact details typed for an earlier, lost hold (empty strings when none). */
  draft: { name: string; nameKana: string; phone: string; email: string; note: string };
  menus: { menuId: string; name: string; price: number; durationMinutes: number }[];
};

export async function findHold(
  db: Database,
  salonId: string,
  holdId: string,
): Promise<HoldRow | null> {
  const [row] = await db
    .select({
      id: bookings.id,
      salonId: bookings.salonId,
      userId: bookings.userId,
      holderKeyHash: bookings.holderKeyHash,
      status: bookings.status,
      holdExpiresAt: bookings.holdExpiresAt,
      startsAt: bookings.startsAt,
      endsAt: bookings.endsAt,
      totalPrice: bookings.totalPrice,
      nominationFee: bookings.nominationFee,
      staffRequested: bookings.staffRequested,
      staffSlug: staff.slug,
      staffName: staff.name,
      couponId: bookings.couponId,
      couponTitle: coupons.title,
      couponStudentOnly: coupons.studentOnly,
      draftName: bookings.customerName,
      draftKana: bookings.customerKana,
      draftPhone: bookings.customerPhone,
      draftEmail: bookings.customerEmail,
      draftNote: bookings.notes,
    })
    .from(bookings)
    .innerJoin(staff, and(eq(staff.id, bookings.staffId), eq(staff.salonId, bookings.salonId)))
    .leftJoin(coupons, eq(coupons.id, bookings.couponId))
    .where(and(eq(bookings.id, holdId), eq(bookings.salonId, salonId)));
  if (!row) return null;
  const menus = await db
    .select({
      menuId: bookingMenus.menuId,
      name: bookingMenus.name,
      price: bookingMenus.price,
      durationMinutes: bookingMenus.durationMinutes,
    })
    .from(bookingMenus)
    .where(and(eq(bookingMenus.salonId, salonId), eq(bookingMenus.bookingId, holdId)))
    .orderBy(asc(bookingMenus.position));
  const { draftName, draftKana, draftPhone, draftEmail, draftNote, ...rest } = row;
  return {
    ...rest,
    couponStudentOnly: rest.couponStudentOnly === true,
    draft: {
      name: draftName,
      nameKana: draftKana,
      phone: draftPhone,
      email: draftEmail,
      note: draftNote,
    },
    menus,
  };
}

/** Live: held, not expired, and the viewer's (their account's, or their browser's as a guest). */
export function holdIsLive(hold: HoldRow, viewer: HoldViewer, now: Date) {
  return (
    hold.status === "held" &&
    hold.holdExpiresAt !== null &&
    hold.holdExpiresAt > now &&
    holdBelongsTo(hold, viewer)
  );
}

/**
 * A guest's hold becomes the signed-in visitor's (they signed in to
 * confirm it). Only a live hold without an owner, made in this browser, is
 * taken, so a hold can never move from one account or browser to another. Like holdSlot, one live hold per
 * visitor and salon: their other holds there are released.
 */
export async function claimHold(
  db: Database,
  input: { salonId: string; holdId: string; userId: string; browserKey: string; now: Date },
) {
  await db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(bookings)
      .set({ userId: input.userId, holderKeyHash: null, holderIp: null })
      .where(
        and(
          eq(bookings.id, input.holdId),
          eq(bookings.salonId, input.salonId),
          eq(bookings.status, "held"),
          isNull(bookings.userId),
          eq(bookings.holderKeyHash, hashHoldBrowserKey(input.browserKey)),
          gt(bookings.holdExpiresAt, input.now),
        ),
      )
      .returning({ id: bookings.id });
    if (!claimed) return;
    await tx
      .delete(bookings)
      .where(
        and(
          eq(bookings.salonId, input.salonId),
          eq(bookings.userId, input.userId),
          eq(bookings.status, "held"),
          ne(bookings.id, input.holdId),
        ),
      );
  });
}

const draftFields = {
  name: ["customerName", 50],
  nameKana: ["customerKana", 50],
  phone: ["customerPhone", 30],
  email: ["customerEmail", 254],
  note: ["notes", 500],
} as const;

/**
 * Keeps on a fresh hold the contact details typed for an earlier hold that
 * was lost (form fields `draft.<name>`), so the visitor does not type them
 * again. Only a prefill: confirmBooking checks and stores what is finally sent.
 */
export async function keepDraft(
  db: Database,
  input: { salonId: string; holdId: string; form: FormData },
) {
  const values: Partial<Record<(typeof draftFields)[keyof typeof draftFields][0], string>> = {};
  for (const [field, [column, max]] of Object.entries(draftFields)) {
    const value = input.form.get(`draft.${field}`);
    if (typeof value === "string" && value.trim() !== "")
      values[column] = value.trim().slice(0, max);
  }
  if (Object.keys(values).length === 0) return;
  await db
    .update(bookings)
    .set(values)
    .where(
      and(
        eq(bookings.id, input.holdId),
        eq(bookings.salonId, input.salonId),
        eq(bookings.status, "held"),
      ),
    );
}
