import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { fieldErrors, requiredText, uuidText } from "../../common/field-rules";
import { formatDate, formatDateTime, formatYen, SITE_TIME_ZONE } from "../../common/format";
import { calendarDay } from "../../common/local-time";
import { RESOLUTION_NOTE_MAX } from "../../common/payment-reconciliation";
import { recordAudit } from "../audit/audit";
import { paymentKindLabels } from "../bookings/booking-payments.server";
import type { Database } from "../db/client";
import {
  type DiscrepancyKind,
  paymentDiscrepancies,
  paymentReconciliations,
  payments,
  salons,
  users,
} from "../db/schema";
import { DomainError } from "../errors/domain-error";
import type { Logger } from "../logger";
import type { PaymentProvider } from "../payments/provider.server";
import { reconcilePayments } from "../payments/reconciliation.server";

/**
 * /admin/payments (issue 40 §3; decision 0081): the differences the daily
 * reconciliation found between our payments and the provider's, open ones
 * first, each with what was found and done; an administrator marks one
 * resolved with a note (audited), or runs today's reconciliation now.
 */

export const discrepancyKindLabels: Record<DiscrepancyKind, string> = {
  missing_here: "こちらに記録なし",
  missing_there: "決済サービスに記録なし",
  amount_mismatch: "金額の不一致",
  status_mismatch: "状態の不一致",
};

const SHOWN = 200;

export const discrepancyViews = ["open", "resolved"] as const;
export type DiscrepancyView = (typeof discrepancyViews)[number];

export type DiscrepancyLine = {
  id: string;
  kind: DiscrepancyKind;
  kindLabel: string;
  providerObjectLabel: string;
  providerId: string;
  paymentId: string | null;
  paymentKindLabel: string | null;
  bookingId: string | null;
  salon: { id: string; name: string } | null;
  ourAmountLabel: string;
  providerAmountLabel: string;
  note: string;
  foundOnLabel: string;
  lastSeenLabel: string;
  resolved: null | {
    atLabel: string;
    byName: string | null;
    auto: boolean;
    note: string | null;
  };
};

const amountLabel = (yen: number | null) => (yen === null ? "—" : formatYen(yen));

export async function discrepanciesPage(db: Database, url: URL) {
  const view: DiscrepancyView = url.searchParams.get("view") === "resolved" ? "resolved" : "open";
  const rows = await db
    .select({
      d: paymentDiscrepancies,
      salonName: salons.name,
      paymentKind: payments.kind,
      bookingId: payments.bookingId,
      resolverName: users.name,
    })
    .from(paymentDiscrepancies)
    .leftJoin(salons, eq(salons.id, paymentDiscrepancies.salonId))
    .leftJoin(payments, eq(payments.id, paymentDiscrepancies.paymentId))
    .leftJoin(users, eq(users.id, paymentDiscrepancies.resolvedBy))
    .where(
      view === "open"
        ? isNull(paymentDiscrepancies.resolvedAt)
        : isNotNull(paymentDiscrepancies.resolvedAt),
    )
    .orderBy(
      view === "open" ? paymentDiscrepancies.foundAt : desc(paymentDiscrepancies.resolvedAt),
      paymentDiscrepancies.providerId,
    )
    .limit(SHOWN);
  const [counts] = await db
    .select({
      open: sql<number>`count(*) filter (where ${paymentDiscrepancies.resolvedAt} is null)::int`,
      resolved: sql<number>`count(*) filter (where ${paymentDiscrepancies.resolvedAt} is not null)::int`,
    })
    .from(paymentDiscrepancies);
  const [lastRun] = await db
    .select()
    .from(paymentReconciliations)
    .orderBy(desc(paymentReconciliations.ranAt))
    .limit(1);
  const lines: DiscrepancyLine[] = rows.map(
    ({ d, salonName, paymentKind, bookingId, resolverName }) => ({
      id: d.id,
      kind: d.kind,
      kindLabel: discrepancyKindLabels[d.kind],
      providerObjectLabel: d.providerObject === "refund" ? "返金" : "決済",
      providerId: d.providerId,
      paymentId: d.paymentId,
      paymentKindLabel: paymentKind ? paymentKindLabels[paymentKind] : null,
      bookingId,
      salon: d.salonId && salonName ? { id: d.salonId, name: salonName } : null,
      ourAmountLabel: amountLabel(d.ourAmount),
      providerAmountLabel: amountLabel(d.providerAmount),
      note: d.note,
      foundOnLabel: formatDate(d.foundOn),
      lastSeenLabel: formatDateTime(d.lastSeenAt),
      resolved: d.resolvedAt
        ? {
            atLabel: formatDateTime(d.resolvedAt),
            byName: resolverName ?? null,
            auto: d.resolution === "auto",
            note: d.resolutionNote,
          }
        : null,
    }),
  );
  const done = url.searchParams.get("done");
  return {
    view,
    lines,
    openCount: counts?.open ?? 0,
    resolvedCount: counts?.resolved ?? 0,
    shownMax: SHOWN,
    lastRun: lastRun
      ? {
          dayLabel: formatDate(lastRun.day),
          ranAtLabel: formatDateTime(lastRun.ranAt),
          paymentsChecked: lastRun.paymentsChecked,
          refundsChecked: lastRun.refundsChecked,
          found: lastRun.found,
          fixed: lastRun.fixed,
        }
      : null,
    notice: done === "resolved" ? "解決済みにしました。" : done === "run" ? "照合しました。" : null,
  };
}
export type DiscrepanciesPageData = Awaited<ReturnType<typeof discrepanciesPage>>;

const resolveSchema = z.object({
  intent: z.literal("resolve", { error: "操作の指定が正しくありません。" }),
  discrepancyId: uuidText("差異"),
  note: requiredText("対応内容", RESOLUTION_NOTE_MAX),
});

/** Marks one difference resolved, with who, when and the note, in the audit log too. */
export async function resolveDiscrepancy(
  db: Database,
  {
    discrepancyId,
    note,
    actor,
    now,
  }: { discrepancyId: string; note: string; actor: { id: string }; now: Date },
) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(paymentDiscrepancies)
      .where(eq(paymentDiscrepancies.id, discrepancyId))
      .for("update");
    if (!row) throw new DomainError("not_found", "この差異は見つかりませんでした。", 404);
    if (row.resolvedAt) {
      throw new DomainError("already_resolved", "この差異はすでに解決済みです。", 409);
    }
    await tx
      .update(paymentDiscrepancies)
      .set({ resolvedAt: now, resolution: "admin", resolvedBy: actor.id, resolutionNote: note })
      .where(and(eq(paymentDiscrepancies.id, row.id), isNull(paymentDiscrepancies.resolvedAt)));
    await recordAudit(
      tx,
      {
        actorUserId: actor.id,
        action: "payment_discrepancy.resolve",
        targetType: "payment_discrepancy",
        targetId: row.id,
        salonId: row.salonId,
        before: { resolved: false },
        after: {
          resolved: true,
          note,
          kind: row.kind,
          providerId: row.providerId,
          paymentId: row.paymentId,
        },
      },
      now,
    );
  });
}

export type DiscrepancyFormResult = {
  discrepancyId: string;
  note: string;
  errors: Record<string, string | undefined>;
};

export type DiscrepancyFormOutcome =
  | { kind: "done"; done: "resolved" | "run" }
  | { kind: "form"; status: number; result: DiscrepancyFormResult };

/** The page's two forms: 解決済みにする (one difference) and 今すぐ照合する (today, audited). */
export async function submitDiscrepancyForm(
  db: Database,
  provider: PaymentProvider | null,
  actor: { id: string },
  form: FormData,
  { now, log }: { now: Date; log?: Logger },
): Promise<DiscrepancyFormOutcome> {
  const typed = {
    discrepancyId: String(form.get("discrepancyId") ?? "").slice(0, 100),
    note: String(form.get("note") ?? ""),
  };
  const fail = (status: number, errors: Record<string, string | undefined>) =>
    ({ kind: "form", status, result: { ...typed, errors } }) as const;
  if (form.get("intent") === "run") {
    if (!provider) {
      return fail(409, {
        form: "オンライン決済が設定されていないため、照合できません。",
      });
    }
    const day = calendarDay(now, SITE_TIME_ZONE);
    await reconcilePayments(db, provider, { day, now, log });
    await db.transaction((tx) =>
      recordAudit(
        tx,
        {
          actorUserId: actor.id,
          action: "payments.reconcile",
          targetType: "payment_discrepancy",
          targetId: day,
          after: { day },
        },
        now,
      ),
    );
    return { kind: "done", done: "run" };
  }
  const parsed = resolveSchema.safeParse({ ...typed, intent: form.get("intent") });
  if (!parsed.success) return fail(400, fieldErrors(parsed.error));
  try {
    await resolveDiscrepancy(db, { ...parsed.data, actor, now });
    return { kind: "done", done: "resolved" };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return fail(error.status, { form: error.message });
  }
}
