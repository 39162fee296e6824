import { DomainError } from "../errors/domain-error";

/**
 * What booking and availability functions throw for input the visitor can
 * act on; server/errors/domain-error.ts turns each into a status and a
 * Japanese message (or `{ "error": { "code", "message" } }` under /api).
 */

export class SalonNotFoundError extends DomainError {
  constructor() {
    super("salon_not_found", "サロンが見つかりません。", 404);
  }
}

export class MenuNotAvailableError extends DomainError {
  constructor() {
    super(
      "menu_not_available",
      "選択したメニューはこのサロンでは予約できません。メニューを選び直してください。",
      400,
    );
  }
}

export class StaffNotAvailableError extends DomainError {
  constructor() {
    super(
      "staff_not_available",
      "選択したスタイリストはこのサロンでは予約できません。スタイリストを選び直してください。",
      400,
    );
  }
}

export class StaffCannotDoMenuError extends DomainError {
  constructor() {
    super(
      "staff_cannot_do_menu",
      "選択したスタイリストは、このメニューを担当していません。別のスタイリストか「指名なし」をお選びください。",
      400,
    );
  }
}

export class InvalidDateRangeError extends DomainError {
  constructor(message = "日付の指定が正しくありません。") {
    super("date_range_invalid", message, 400);
  }
}

/** Someone else took the time first (or the last free stylist for it). */
export class SlotTakenError extends DomainError {
  constructor() {
    super(
      "slot_taken",
      "申し訳ありません。この時間はたった今ほかの方の予約で埋まりました。別の時間をお選びください。",
      409,
    );
  }
}

/** The time is not one the salon offers (closed, outside hours, too soon, beyond the window). */
export class SlotUnavailableError extends DomainError {
  constructor() {
    super(
      "slot_unavailable",
      "選択した日時は予約を受け付けていません。表示されている空き時間からお選びください。",
      409,
    );
  }
}

export class HoldExpiredError extends DomainError {
  constructor() {
    super(
      "hold_expired",
      "お時間の確保期限が切れました。お手数ですが、もう一度日時をお選びください。",
      410,
    );
  }
}

/**
 * The visitor's Idempotency-Key already confirmed another of their holds:
 * answering with that old booking would tell them this hold was booked.
 */
export class IdempotencyKeyReusedError extends DomainError {
  constructor() {
    super(
      "idempotency_key_reused",
      "この Idempotency-Key は、すでに別の予約の確定に使われています。新しい予約には別のキーを指定してください。",
      422,
    );
  }
}

/** Where an unverified visitor asks for the confirmation mail again (the page's link). */
export const resendVerificationPath = "/mail_not_confirm";

/**
 * Booking needs an address the customer has shown they read (decision 0027):
 * the salon's confirmation, reminder and cancellation mails go there.
 */
export class EmailNotVerifiedError extends DomainError {
  constructor() {
    super(
      "email_not_verified",
      "予約を確定するには、メールアドレスの確認が必要です。お送りした確認メールのリンクを開いてから、もう一度お試しください（お時間の確保はそのままです）。",
      403,
    );
  }
}

export class BookingNotFoundError extends DomainError {
  constructor() {
    super("booking_not_found", "予約が見つかりません。", 404);
  }
}

export class BookingNotCancellableError extends DomainError {
  constructor() {
    super("booking_not_cancellable", "この予約はすでにキャンセル済みか、終了しています。", 409);
  }
}

export class CancellationClosedError extends DomainError {
  constructor(cutoffHours: number) {
    super(
      "cancellation_closed",
      `キャンセル期限（ご来店の${cutoffHours}時間前）を過ぎているため、ウェブからはキャンセルできません。お手数ですがサロンへお電話ください。`,
      409,
      { cutoffHours },
    );
  }
}

export class CouponNotApplicableError extends DomainError {
  constructor(
    message = "このクーポンは、選択したメニューまたは日時ではご利用いただけません。",
    /** Which of the coupon's rules refused it (common/coupon-eligibility.ts), when one did. */
    reason?: string,
  ) {
    super("coupon_not_applicable", message, 400, reason ? { reason } : undefined);
  }
}
