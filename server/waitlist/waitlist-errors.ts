import { WAITLIST_LIVE_ENTRIES_MAX } from "../../common/waitlist";
import { DomainError } from "../errors/domain-error";

/**
 * The waiting list's refusals (decision 0055), each with the Japanese
 * message the visitor reads and a 4xx status.
 */

/** An entry or offer that does not exist, or is someone else's (never told apart). */
export class WaitlistNotFoundError extends DomainError {
  constructor() {
    super("waitlist_not_found", "キャンセル待ちが見つかりませんでした。", 404);
  }
}

export class WaitlistOfferNotFoundError extends DomainError {
  constructor() {
    super("waitlist_offer_not_found", "空きのご案内が見つかりませんでした。", 404);
  }
}

/** The offer was taken, declined, withdrawn or ran out. */
export class WaitlistOfferClosedError extends DomainError {
  constructor() {
    super(
      "waitlist_offer_closed",
      "このご案内は受付を終了しました（期限切れ、またはお取り消し済みです）。",
      410,
    );
  }
}

export class WaitlistInvalidError extends DomainError {
  constructor(message: string, field?: string) {
    super("waitlist_invalid", message, 400, field ? { field } : undefined);
  }
}

export class WaitlistTooManyError extends DomainError {
  constructor() {
    super(
      "waitlist_too_many",
      `キャンセル待ちは同時に${WAITLIST_LIVE_ENTRIES_MAX}件までです。不要なキャンセル待ちを取り消してから、もう一度お申し込みください。`,
      409,
      { limit: WAITLIST_LIVE_ENTRIES_MAX },
    );
  }
}

export class WaitlistDuplicateError extends DomainError {
  constructor() {
    super(
      "waitlist_duplicate",
      "この日のキャンセル待ちはすでにお申し込み済みです。内容を変えるときは、今のキャンセル待ちを取り消してからお申し込みください。",
      409,
    );
  }
}

/** A matching time is free right now: book it instead of queueing for it. */
export class WaitlistTimeFreeError extends DomainError {
  constructor() {
    super("waitlist_time_free", "ご希望の時間に空きがあります。そのままご予約いただけます。", 409);
  }
}

/** An entry no longer in line (left, booked, lapsed, expired) cannot be left again. */
export class WaitlistNotLiveError extends DomainError {
  constructor() {
    super("waitlist_not_live", "このキャンセル待ちはすでに終了しています。", 409);
  }
}

/** Too many joins in a short time: 429 with Retry-After. */
export class TooManyWaitlistAttemptsError extends DomainError {
  constructor(readonly retryAfter: number) {
    super(
      "too_many_requests",
      `操作が多すぎます。${retryAfter}秒ほど待ってから、もう一度お試しください。`,
      429,
      { retryAfter },
    );
  }
}
