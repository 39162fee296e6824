import { couponTargetLabels } from "../../common/coupon-eligibility";
import { formatDate, formatYen } from "../../common/format";
import { isLocalDate, toLocal } from "../../common/local-time";
import { isPendingApproval, staffBookingLabel } from "../../common/status-labels";
import type { BookingMoney } from "../bookings/booking-fees.server";
import { salonActor } from "../bookings/booking-history.server";
import type { Database } from "../db/client";
import type { BookingStatus } from "../db/schema";
import { DomainError } from "../errors/domain-error";
import { can, ownerPageSalon, type SalonAccess } from "../salon-access/salon-access.server";
import {
  type BookingActionName,
  bookingActionNames,
  bookingActionSchema,
  cancelCategoryLabels,
  type UndoableAction,
} from "./booking-actions.schema";
import {
  ARRIVAL_EARLIEST_MINUTES,
  applyBookingAction,
  BookingNotFoundForSalonError,
  moveChoices,
  type OwnerBookingDetail,
  undoableStatus,
} from "./booking-actions.server";
import {
  type OwnerPaymentLine,
  ownerPaymentsOfBooking,
  paymentDoneMessages,
  paymentIntents,
  submitPaymentForm,
} from "./booking-money.server";
import { hasCheckout } from "./checkout.server";
import { readOwnerBooking } from "./scope.server";

/**
 * The pages /owner/salons/{id}/bookings/{bookingId} and its /move (issue 28,
 * point 4; decision 0040): what they show, already worded and formatted in
 * the salon's zone, and their form posts turned into one action of
 * booking-actions.server.ts. The route modules only guard and call these.
 */

const sourceLabels: Record<string, string> = { web: "ネット予約", phone: "電話", walk_in: "来店" };

export const doneMessages: Record<BookingActionName, string> = {
  arrived: "来店を記録しました。",
  completed: "施術完了を記録しました。",
  no_show: "無断キャンセルを記録しました。",
  cancel:
    "予約をキャンセルしました。お客様にはメールでお知らせします（メールアドレスがある場合）。",
  move: "予約を変更しました。お客様にはメールでお知らせします（メールアドレスがある場合）。",
  note: "サロンメモを保存しました。",
  release: "ブロックを削除しました。",
  approve: "仮予約を承認しました。予約が確定したことを、お客様にメールでお知らせします。",
  undo: "記録を取り消しました。",
  refuse:
    "仮予約を承認しませんでした。この時間は再び予約を受け付けます。お客様にはメールでお知らせします。",
};

/** What the entry form (/bookings/new) reports when it lands here with ?done=. */
const entryDoneMessages: Record<string, string> = {
  created: "予約を登録しました。メールアドレスがあれば、お客様に確認メールをお送りします。",
  blocked: "ブロックを登録しました。この時間はネット予約で選べなくなります。",
};

const dateTimeLabel = (at: Date, timeZone: string) => {
  const local = toLocal(at, timeZone);
  return `${formatDate(local.date)} ${local.time}`;
};

const spanLabel = (start: string, end: string, timeZone: string) => {
  const from = toLocal(new Date(start), timeZone);
  const to = toLocal(new Date(end), timeZone);
  return `${formatDate(from.date)} ${from.time}〜${to.time}`;
};

type Side = { startsAt?: string; endsAt?: string; staffName?: string; menus?: string[] };

function historyWhat(
  event: OwnerBookingDetail["history"][number],
  detail: OwnerBookingDetail,
): string {
  const d = event.details as Record<string, unknown>;
  const zone = detail.timeZone;
  switch (event.kind) {
    case "created":
      return detail.kind === "block"
        ? "ブロックを登録"
        : `予約を受付（${sourceLabels[String(d.source ?? detail.source)] ?? "ネット予約"}${
            d.approval === "pending" ? "・仮予約（承認待ち）" : ""
          }）`;
    case "confirmed":
      return d.approval === "approved" ? "仮予約を承認（予約確定）" : "予約を確定";
    case "moved":
    case "menus_changed": {
      const from = (d.from ?? {}) as Side;
      const to = (d.to ?? {}) as Side;
      const side = (s: Side) =>
        [
          s.startsAt && s.endsAt ? spanLabel(s.startsAt, s.endsAt, zone) : "",
          s.staffName ?? "",
          (s.menus ?? []).join("、"),
        ]
          .filter(Boolean)
          .join("・");
      const verb = event.kind === "moved" ? "予約を移動" : "メニューを変更";
      const outside = d.outsideSchedule ? "（勤務時間外を確認のうえ）" : "";
      return `${verb}${outside}：${side(from)} → ${side(to)}`;
    }
    case "arrived":
      return "来店";
    case "completed":
      return "施術完了";
    case "no_show":
      return "無断キャンセル";
    case "cancelled": {
      if (d.block) return "ブロックを削除";
      if (d.approval === "refused" && d.lapsed) {
        return "仮予約の回答期限切れ（自動でお断り・お客様にメールでお知らせ）";
      }
      if (d.approval === "refused") {
        const said = typeof d.message === "string" && d.message ? `　メッセージ：${d.message}` : "";
        return `仮予約を承認しない（お断り）${said}`;
      }
      if (event.actorKind === "customer") {
        return `お客様がキャンセル${d.reason ? `（理由：${String(d.reason)}）` : ""}`;
      }
      const category = typeof d.categoryLabel === "string" ? d.categoryLabel : "";
      const message =
        typeof d.message === "string" && d.message ? `　メッセージ：${d.message}` : "";
      // The customer's reasons are the customer's cancellation, taken by the salon (decision 0065).
      const whose =
        typeof d.category === "string" && d.category !== "salon"
          ? "お客様のキャンセルを受付"
          : "サロンがキャンセル";
      return `${whose}${category ? `（${category}）` : ""}${message}`;
    }
    case "note_changed":
      return "サロンメモを更新";
    case "undone":
      return `${undoNames[String(d.undid)] ?? "記録"}を取り消し`;
  }
}

const undoNames: Record<string, string> = {
  arrived: "来店",
  completed: "施術完了",
  no_show: "無断キャンセル",
};

const historyWho = (event: OwnerBookingDetail["history"][number]) =>
  event.actorKind === "customer"
    ? "お客様"
    : event.actorKind === "system"
      ? "システム"
      : (event.actorName ?? "サロン");

export type BookingPageBooking = {
  id: string;
  kind: "booking" | "block";
  bookingNumber: string;
  version: number;
  status: BookingStatus;
  statusLabel: string;
  sourceLabel: string;
  dateLabel: string;
  timeLabel: string;
  staffName: string;
  staffRequested: boolean;
  customer: { name: string; kana: string; phone: string; email: string };
  customerHref: string | null;
  menus: { name: string; priceLabel: string; durationMinutes: number }[];
  couponTitle: string | null;
  /** 学割: the customer stated they are a student (decision 0087). */
  studentDeclared?: boolean;
  /** 指名料 in the total (decision 0047), or null when none. */
  nominationFeeLabel?: string | null;
  totalLabel: string;
  notes: string;
  /** The policy the customer agreed to (decision 0075), as its generated lines; null: none. */
  policyLines: string[] | null;
  /**
   * Every payment, fee and refund with who and when (decisions 0078, 0080),
   * with what this person may do to each; absent or empty: nothing.
   */
  payments?: OwnerPaymentLine[];
  salonNote: string;
  arrivedLabel: string | null;
  cancellation: { label: string; message: string } | null;
  history: { id: string; what: string; who: string; when: string }[];
  can: {
    arrive: boolean;
    complete: boolean;
    noShow: boolean;
    cancel: boolean;
    move: boolean;
    release: boolean;
    /** Edit the salon's note (any state). */
    note: boolean;
    /** Approval mode (decision 0051): 承認する / 承認しない a pending booking. */
    approve: boolean;
    refuse: boolean;
    /**
     * The status action the salon may take back now (recorded today), and
     * the button's words; null when there is none (issue 38, §1.1).
     */
    undo: { action: UndoableAction; label: string } | null;
  };
  /**
   * 会計 (decision 0079): the form to take it, or the receipt once taken;
   * null when it cannot be taken (not yet arrived or started, cancelled, a
   * block) or the role may not.
   */
  checkout: { href: string; label: string; saved: boolean } | null;
  /** A web booking waiting for the salon's approval (仮予約). */
  pending: boolean;
  /** From when 来店 may be recorded (ARRIVAL_EARLIEST_MINUTES before the start), for the hint. */
  arriveFrom: string;
  /** When a no-show may be recorded (the start), for the hint before it. */
  startTime: string;
  /** The local date, for the ledger link. */
  date: string;
};

function undoOf(detail: OwnerBookingDetail, now: Date) {
  const action = undoableStatus(detail, detail.history, now, detail.timeZone);
  return action ? { action, label: `${undoNames[action]}を取り消す` } : null;
}

function pageBooking(detail: OwnerBookingDetail, salonId: string, now: Date): BookingPageBooking {
  const start = toLocal(detail.startsAt, detail.timeZone);
  const end = toLocal(detail.endsAt, detail.timeZone);
  const live = detail.status === "confirmed";
  const isBooking = detail.kind === "booking";
  const pending = isBooking && isPendingApproval(detail);
  const arriveFromMs = detail.startsAt.getTime() - ARRIVAL_EARLIEST_MINUTES * 60_000;
  return {
    id: detail.id,
    kind: detail.kind,
    bookingNumber: detail.bookingNumber,
    version: detail.version,
    status: detail.status,
    statusLabel: staffBookingLabel({ ...detail, arrived: detail.arrivedAt !== null }),
    sourceLabel: sourceLabels[detail.source] ?? detail.source,
    dateLabel: formatDate(start.date),
    timeLabel: `${start.time}〜${end.time}`,
    staffName: detail.staff.name,
    staffRequested: detail.staffRequested,
    customer: detail.customer,
    customerHref: detail.customerId
      ? `/owner/salons/${salonId}/customers/${detail.customerId}`
      : null,
    menus: detail.menus.map((menu) => ({
      name: menu.name,
      priceLabel: formatYen(menu.price),
      durationMinutes: menu.durationMinutes,
    })),
    couponTitle: detail.coupon
      ? `【${couponTargetLabels[detail.coupon.target]}】${detail.coupon.title}`
      : null,
    studentDeclared: detail.studentDeclared,
    nominationFeeLabel: detail.nominationFee > 0 ? formatYen(detail.nominationFee) : null,
    totalLabel: formatYen(detail.totalPrice),
    notes: detail.notes,
    policyLines: detail.paymentPolicy?.lines ?? null,
    salonNote: detail.salonNote,
    arrivedLabel: detail.arrivedAt ? dateTimeLabel(detail.arrivedAt, detail.timeZone) : null,
    cancellation:
      detail.cancelledAt && isBooking && detail.status.startsWith("cancelled")
        ? {
            label: `${dateTimeLabel(detail.cancelledAt, detail.timeZone)}${
              detail.cancelCategory ? `・${cancelCategoryLabels[detail.cancelCategory]}` : ""
            }`,
            message: detail.cancelReason,
          }
        : null,
    history: detail.history.map((event) => ({
      id: event.id,
      what: historyWhat(event, detail),
      who: historyWho(event),
      when: dateTimeLabel(event.at, detail.timeZone),
    })),
    can: {
      arrive: isBooking && live && !detail.arrivedAt && now.getTime() >= arriveFromMs,
      complete: isBooking && live && (detail.arrivedAt !== null || now >= detail.startsAt),
      noShow:
        isBooking &&
        live &&
        !detail.arrivedAt &&
        detail.source !== "walk_in" &&
        now >= detail.startsAt,
      cancel: isBooking && live,
      move: isBooking && live,
      release: !isBooking && live,
      note: true,
      approve: pending,
      refuse: pending,
      undo: undoOf(detail, now),
    },
    checkout: null,
    pending,
    arriveFrom: toLocal(new Date(arriveFromMs), detail.timeZone).time,
    startTime: start.time,
    date: start.date,
  };
}

async function loadDetail(db: Database, access: SalonAccess, bookingId: string | undefined) {
  try {
    // What this person may see of it (a stylist: their own, without phone or email).
    return await readOwnerBooking(db, access, bookingId ?? "");
  } catch (error) {
    if (error instanceof BookingNotFoundForSalonError) return null;
    throw error;
  }
}

export type BookingDetailPageData = {
  salon: ReturnType<typeof ownerPageSalon>;
  booking: BookingPageBooking;
  done: string | null;
  cancelCategories: { value: string; label: string }[];
};

/** The detail page, or null when this salon has no such booking (the route answers 404). */
export async function bookingDetailPage(
  db: Database,
  access: SalonAccess,
  bookingId: string | undefined,
  url: URL,
  now: Date,
): Promise<BookingDetailPageData | null> {
  const detail = await loadDetail(db, access, bookingId);
  if (!detail) return null;
  const done = url.searchParams.get("done");
  const booking = pageBooking(detail, access.salon.id, now);
  booking.payments = await ownerPaymentsOfBooking(db, access, detail.id);
  // A role that may read but not act (part 2's staff roles) sees no action forms.
  if (!can(access, "bookings.act")) {
    booking.can = {
      arrive: false,
      complete: false,
      noShow: false,
      cancel: false,
      move: false,
      release: false,
      note: false,
      approve: false,
      refuse: false,
      undo: null,
    };
  }
  if (can(access, "checkout.act") && detail.kind === "booking") {
    const href = `/owner/salons/${access.salon.id}/bookings/${detail.id}`;
    if (await hasCheckout(db, access.salon.id, detail.id)) {
      booking.checkout = { href: `${href}/receipt`, label: "領収書を表示", saved: true };
    } else if (
      detail.status === "completed" ||
      (detail.status === "confirmed" && (detail.arrivedAt !== null || now >= detail.startsAt))
    ) {
      booking.checkout = { href: `${href}/checkout`, label: "会計する", saved: false };
    }
  }
  return {
    salon: ownerPageSalon(access),
    booking,
    done:
      done && (bookingActionNames as readonly string[]).includes(done)
        ? doneMessages[done as BookingActionName]
        : done
          ? (entryDoneMessages[done] ?? paymentDoneMessages[done] ?? null)
          : null,
    cancelCategories: Object.entries(cancelCategoryLabels).map(([value, label]) => ({
      value,
      label,
    })),
  };
}

export type MoveValues = {
  date: string;
  time: string;
  staffId: string;
  menuIds: string[];
  confirmOutsideSchedule: boolean;
  /** 指名を引き継ぐ (issue 38, §1.3): off unless ticked. */
  keepNomination: boolean;
};

export type MovePageData = {
  salon: ReturnType<typeof ownerPageSalon>;
  booking: BookingPageBooking;
  stylists: { value: string; label: string }[];
  menus: { id: string; category: string; label: string }[];
  values: MoveValues;
};

/** The move page: the booking as it is and the choices; null → 404. */
export async function bookingMovePage(
  db: Database,
  access: SalonAccess,
  bookingId: string | undefined,
  now: Date,
): Promise<MovePageData | null> {
  const detail = await loadDetail(db, access, bookingId);
  if (!detail) return null;
  const choices = await moveChoices(db, access.salon.id);
  const start = toLocal(detail.startsAt, detail.timeZone);
  return {
    salon: ownerPageSalon(access),
    booking: pageBooking(detail, access.salon.id, now),
    stylists: choices.stylists.map((s) => ({ value: s.id, label: s.name })),
    menus: choices.menus.map((m) => ({
      id: m.id,
      category: m.category,
      label: `${m.name}（${formatYen(m.price)}・${m.durationMinutes}分）${m.published ? "" : "（非公開）"}`,
    })),
    values: {
      date: start.date,
      time: start.time,
      staffId: detail.staff.id,
      menuIds: detail.menus.map((m) => m.menuId),
      confirmOutsideSchedule: false,
      keepNomination: false,
    },
  };
}

/** What a refused post gives back: messages per field (and `form`), and what was typed. */
export type BookingFormErrors = Record<string, string>;
export type BookingFormValues = {
  intent: string;
  category?: string;
  message?: string;
  note?: string;
} & Partial<MoveValues>;

export type BookingFormOutcome =
  | { kind: "done"; location: string }
  | {
      kind: "refused";
      status: number;
      errors: BookingFormErrors;
      values: BookingFormValues;
      /** The move left the stylist's schedule: the form shows the 「このまま移動する」 box. */
      needsConfirmation: boolean;
    };

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** "3" → 3; anything else NaN (refused by the schema with its message). */
const versionOf = (raw: string) => (/^\d{1,10}$/.test(raw) ? Number(raw) : Number.NaN);

/** The form post as the action input the API takes; the field names are the API's. */
function actionInput(form: FormData) {
  const intent = text(form, "intent");
  const base = { action: intent, version: versionOf(text(form, "version")) };
  switch (intent) {
    case "cancel":
      return { ...base, category: text(form, "category"), message: text(form, "message") };
    case "note":
      return { action: intent, note: text(form, "note") };
    case "refuse":
      return { ...base, message: text(form, "message") };
    case "undo":
      return { ...base, undo: text(form, "undo") };
    case "move":
      return {
        ...base,
        date: text(form, "date").trim(),
        time: text(form, "time").trim(),
        staffId: text(form, "staffId"),
        menuIds: form.getAll("menuIds").filter((v): v is string => typeof v === "string"),
        confirmOutsideSchedule: text(form, "confirmOutsideSchedule") === "on",
        keepNomination: text(form, "keepNomination") === "on",
      };
    default:
      return base;
  }
}

function typedValues(form: FormData): BookingFormValues {
  const date = text(form, "date");
  return {
    intent: text(form, "intent").slice(0, 20),
    category: text(form, "category").slice(0, 40),
    message: text(form, "message"),
    note: text(form, "note"),
    date: isLocalDate(date) ? date : date.slice(0, 20),
    time: text(form, "time").slice(0, 10),
    staffId: text(form, "staffId").slice(0, 40),
    menuIds: form
      .getAll("menuIds")
      .filter((v): v is string => typeof v === "string")
      .slice(0, 20),
    confirmOutsideSchedule: text(form, "confirmOutsideSchedule") === "on",
    keepNomination: text(form, "keepNomination") === "on",
  };
}

/**
 * A post of the detail or the move page: one action, or the refusal with
 * its messages and the typed values (400 for unreadable input, the
 * action's own status otherwise: 409 stale or in the way, 422 not allowed).
 */
export async function submitBookingForm(
  db: Database,
  access: SalonAccess,
  bookingId: string | undefined,
  form: FormData,
  now: Date,
  /** The money a no-show or a cancellation moves (decision 0080), sent after the commit. */
  money?: BookingMoney,
): Promise<BookingFormOutcome> {
  const values = typedValues(form);
  const refused = (status: number, errors: BookingFormErrors, needsConfirmation = false) => ({
    kind: "refused" as const,
    status,
    errors,
    values,
    needsConfirmation,
  });
  const intent = text(form, "intent");
  if ((paymentIntents as readonly string[]).includes(intent)) {
    // 返金・請求しない・再試行 (decision 0080): their own rules and rights.
    try {
      const { done } = await submitPaymentForm(
        db,
        access,
        bookingId ?? "",
        form,
        now,
        money ?? { provider: null, publicUrl: "" },
      );
      return {
        kind: "done",
        location: `/owner/salons/${access.salon.id}/bookings/${bookingId}?done=${done}`,
      };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return refused(error.status, { form: error.message });
    }
  }
  const parsed = bookingActionSchema.safeParse(actionInput(form));
  if (!parsed.success) {
    const errors: BookingFormErrors = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] === "action" ? "form" : String(issue.path[0] ?? "form");
      errors[key] ??=
        key === "form" && issue.path[0] === "action"
          ? "操作の種類が正しくありません。画面を読み込み直してください。"
          : issue.message;
    }
    return refused(400, errors);
  }
  try {
    await applyBookingAction(
      db,
      { salonId: access.salon.id, bookingId: bookingId ?? "" },
      parsed.data,
      salonActor(access.user.id),
      now,
      money,
    );
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    if (error.code === "outside_schedule") {
      return refused(error.status, { confirmOutsideSchedule: error.message }, true);
    }
    return refused(error.status, { form: error.message });
  }
  return {
    kind: "done",
    location: `/owner/salons/${access.salon.id}/bookings/${bookingId}?done=${parsed.data.action}`,
  };
}
