import { formatDate } from "../../common/format";
import { toLocal } from "../../common/local-time";
import { type PaymentRecord, paymentTextLines } from "../payments/payment-lines";
import type { Mail } from "./mailer";

/**
 * The booking mails (templates.ts has the account mails): confirmation,
 * cancellation and the day-before reminder to the visitor, and a notice of
 * new and cancelled bookings to the salon's owners. Plain text and HTML
 * carry the same lines; the .ics is attached by the caller.
 */

export type BookingMailDetails = {
  bookingNumber: string;
  salonName: string;
  salonAddress: string;
  salonPhone: string;
  timeZone: string;
  startsAt: Date;
  endsAt: Date;
  menus: { name: string; price: number }[];
  staffName: string;
  /** False when the visitor chose 指名なし and the salon assigned the stylist. */
  staffRequested: boolean;
  /** 指名料 in totalPrice (decision 0047); 0 or absent: none. */
  nominationFee?: number;
  totalPrice: number;
  /** The coupon the total was priced with, if any. */
  couponTitle: string | null;
  /** The visitor said they are a student for a 学割 coupon (bookings.student_declared). */
  studentDeclared?: boolean;
  customerName: string;
  customerPhone: string;
  customerEmail: string;
  notes: string;
  cancellationCutoffHours: number;
  cancelReason: string;
  /** The salon cancelled (cancelled_by_salon): the visitor's mail says so, with its message. */
  cancelledBySalon?: boolean;
  /**
   * The salon recorded the customer's own cancellation (a phone call,
   * decision 0065): the mail confirms it, with the salon's message if any.
   */
  cancelEnteredBySalon?: boolean;
  /**
   * Approval mode (decision 0051): "pending" while the salon has not
   * answered (the mails say 仮予約), "refused" when it declined; else null.
   */
  approval?: "pending" | "approved" | "refused" | null;
  /**
   * The request lapsed unanswered at its deadline (decision 0071): the
   * system declined it, not the salon, so the mail says so.
   */
  approvalLapsed?: boolean;
  /** When a pending request lapses unanswered (decision 0071); said in the 仮予約 mail. */
  approvalExpiresAt?: Date | null;
  /** The booking's page in the back office, for the salon's notice of a pending booking. */
  ownerBookingUrl?: string;
  /** The payment and cancellation policy agreed to, as stored on the booking (decision 0075). */
  paymentPolicyLines?: string[] | null;
  /** What was paid, refunded, or kept on a card (decision 0083); absent or empty: nothing. */
  payments?: PaymentRecord[];
};

/** Where a moved booking was before (the mail's 変更前 lines). */
export type PreviousBookingTime = {
  startsAt: Date;
  endsAt: Date;
  staffName: string;
  menuNames: string[];
};

export type BookingMailKind = "confirmed" | "cancelled" | "reminder" | "approved";

/** The visitor's words for a booking that waits for the salon's approval. */
export const PENDING_STATUS = "仮予約（サロンの承認待ち）";

/**
 * "2026年11月23日(月) 10:00〜11:30" in the salon's zone, whatever the server's
 * zone: the salon's local day goes through the site's one date formatter.
 */
export function formatBookingTime(startsAt: Date, endsAt: Date, timeZone: string): string {
  const start = toLocal(startsAt, timeZone);
  const end = toLocal(endsAt, timeZone);
  return `${formatDate(start.date)} ${start.time}〜${end.time}`;
}

/** "2026年11月23日(月) 18:00" in the salon's zone. */
export function formatLocalMinute(at: Date, timeZone: string): string {
  const local = toLocal(at, timeZone);
  return `${formatDate(local.date)} ${local.time}`;
}

const yen = (amount: number) => `${amount.toLocaleString("ja-JP")}円`;

const staffLine = (b: BookingMailDetails) =>
  b.staffRequested
    ? `${b.staffName}${b.nominationFee ? `（指名料 ${yen(b.nominationFee)}）` : ""}`
    : `指名なし（担当：${b.staffName}）`;

const policy = (b: BookingMailDetails) =>
  `ご予約の${b.cancellationCutoffHours}時間前まで、予約履歴からキャンセルできます。それ以降のキャンセル・変更は、サロンへ直接お電話ください${b.salonPhone ? `（${b.salonPhone}）` : ""}。`;

/** The booking's lines, shared by the mails and the LINE messages (server/line/line-templates.ts). */
export function bookingLines(b: BookingMailDetails): string[] {
  return [
    `予約番号：${b.bookingNumber}`,
    `サロン：${b.salonName}`,
    `住所：${b.salonAddress}`,
    `日時：${formatBookingTime(b.startsAt, b.endsAt, b.timeZone)}`,
    `メニュー：${b.menus.map((menu) => `${menu.name}（${yen(menu.price)}）`).join("、")}`,
    `スタッフ：${staffLine(b)}`,
    ...(b.couponTitle
      ? [
          `クーポン：${b.couponTitle}${b.studentDeclared ? "（学割：ご来店時に学生証をご提示ください）" : ""}`,
        ]
      : []),
    `合計金額：${yen(b.totalPrice)}（税込）`,
  ];
}

type Parts = {
  subject: string;
  lead: string;
  lines: string[];
  link?: { label: string; url: string };
  note?: string;
  /** The policy agreed to at booking, its own section after the booking (decision 0075). */
  policy?: string[] | null;
  /** What was paid, refunded and kept (decision 0083), its own section before the policy. */
  payments?: string[];
};

const PAYMENTS_HEADING = "お支払い";

/**
 * The mail's payment lines; while the booking stands (`standing`), what is
 * left to pay at the salon too.
 */
const paymentsOf = (b: BookingMailDetails, standing: boolean) =>
  paymentTextLines(b.payments ?? [], standing ? { remainingOf: b.totalPrice } : {});

const POLICY_HEADING = "お支払いとキャンセル料（ご予約時に同意いただいた内容）";

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function compose(to: string, parts: Parts): Mail {
  const text = [
    parts.lead,
    "",
    "■ ご予約内容",
    ...parts.lines,
    ...(parts.payments?.length
      ? ["", `■ ${PAYMENTS_HEADING}`, ...parts.payments.map((line) => `・${line}`)]
      : []),
    ...(parts.policy?.length
      ? ["", `■ ${POLICY_HEADING}`, ...parts.policy.map((line) => `・${line}`)]
      : []),
    ...(parts.note ? ["", parts.note] : []),
    ...(parts.link ? ["", `${parts.link.label}：`, parts.link.url] : []),
    "",
    "――",
    "Salon Navi（このメールは送信専用です）",
  ].join("\n");
  const html = `<!doctype html><html lang="ja"><body style="font-family:sans-serif;line-height:1.7">
<p>${escapeHtml(parts.lead).replaceAll("\n", "<br>")}</p>
<h2 style="font-size:1em">ご予約内容</h2>
<ul>${parts.lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>
${parts.payments?.length ? `<h2 style="font-size:1em">${PAYMENTS_HEADING}</h2>\n<ul>${parts.payments.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>` : ""}
${parts.policy?.length ? `<h2 style="font-size:1em">${POLICY_HEADING}</h2>\n<ul>${parts.policy.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>` : ""}
${parts.note ? `<p>${escapeHtml(parts.note)}</p>` : ""}
${parts.link ? `<p><a href="${escapeHtml(parts.link.url)}">${escapeHtml(parts.link.label)}</a></p>` : ""}
<p style="font-size:0.9em;color:#555">Salon Navi（このメールは送信専用です）</p>
</body></html>`;
  return { to, subject: parts.subject, text, html };
}

/** The mail to the visitor; `publicUrl` is the site's origin for the history link. */
export function renderVisitorBookingMail(
  kind: BookingMailKind,
  b: BookingMailDetails,
  publicUrl: string,
): Mail {
  const history = { label: "予約履歴を見る", url: `${publicUrl}/account/history` };
  const name = b.customerName ? `${b.customerName} 様` : "お客様";
  const pending = b.approval === "pending";
  const parts: Record<BookingMailKind, Parts> = {
    confirmed: pending
      ? {
          subject: `【Salon Navi】仮予約を受け付けました・サロンの承認待ち（${b.salonName}）`,
          lead: `${name}\n\nSalon Naviをご利用いただきありがとうございます。以下の内容で仮予約を受け付けました。このサロンではご予約にサロンの承認が必要です。承認されるとご予約が確定し、改めてメールでお知らせします。それまでこのお時間はお客様のために確保されています。添付のカレンダーファイル（.ics）は仮の予定として追加されます。`,
          lines: [
            `状態：${PENDING_STATUS}`,
            ...(b.approvalExpiresAt
              ? [
                  `サロンの回答期限：${formatLocalMinute(b.approvalExpiresAt, b.timeZone)}（期限までに承認されない場合、仮予約は自動的に取り消され、メールでお知らせします）`,
                ]
              : []),
            ...bookingLines(b),
          ],
          note: `キャンセルポリシー：${policy(b)}`,
          payments: paymentsOf(b, true),
          policy: b.paymentPolicyLines,
          link: history,
        }
      : {
          subject: `【Salon Navi】ご予約が確定しました（${b.salonName}）`,
          lead: `${name}\n\nSalon Naviをご利用いただきありがとうございます。以下の内容でご予約が確定しました。添付のカレンダーファイル（.ics）で、予定をカレンダーに追加できます。`,
          lines: bookingLines(b),
          note: `キャンセルポリシー：${policy(b)}`,
          payments: paymentsOf(b, true),
          policy: b.paymentPolicyLines,
          link: history,
        },
    approved: {
      subject: `【Salon Navi】ご予約が確定しました・サロンが承認しました（${b.salonName}）`,
      lead: `${name}\n\n${b.salonName} が仮予約を承認し、以下の内容でご予約が確定しました。添付のカレンダーファイル（.ics）を開くと、カレンダーの予定も確定に変わります。`,
      lines: [`状態：予約確定`, ...bookingLines(b)],
      note: `キャンセルポリシー：${policy(b)}`,
      payments: paymentsOf(b, true),
      policy: b.paymentPolicyLines,
      link: history,
    },
    cancelled:
      b.approval === "refused" && b.approvalLapsed
        ? {
            subject: `【Salon Navi】仮予約の期限が過ぎたため、ご予約は成立しませんでした（${b.salonName}）`,
            lead: `${name}\n\n以下の仮予約は、回答期限までに ${b.salonName} の承認が得られなかったため、自動的に取り消されました。ご予約は成立していません。添付のカレンダーファイル（.ics）を開くと、カレンダーの仮の予定も取り消されます。`,
            lines: bookingLines(b),
            payments: paymentsOf(b, false),
            note: `お手数ですが、別の日時でのご予約をご検討ください。ご不明な点は ${b.salonName} へお問い合わせください${b.salonPhone ? `（${b.salonPhone}）` : ""}。`,
            link: history,
          }
        : b.approval === "refused"
          ? {
              subject: `【Salon Navi】ご予約をお受けできませんでした（${b.salonName}）`,
              lead: `${name}\n\n${b.salonName} より、以下の仮予約をお受けできないとのご連絡がありました。このご予約は取り消されました。添付のカレンダーファイル（.ics）を開くと、カレンダーの仮の予定も取り消されます。${b.cancelReason ? `\n\nサロンからのメッセージ：\n${b.cancelReason}` : ""}`,
              lines: bookingLines(b),
              payments: paymentsOf(b, false),
              note: `別の日時でのご予約や、ご不明な点は ${b.salonName} へお問い合わせください${b.salonPhone ? `（${b.salonPhone}）` : ""}。`,
              link: history,
            }
          : b.cancelledBySalon
            ? {
                subject: `【Salon Navi】サロンがご予約をキャンセルしました（${b.salonName}）`,
                lead: `${name}\n\n${b.salonName} より、以下のご予約をキャンセルしたとのご連絡がありました。添付のカレンダーファイル（.ics）を開くと、カレンダーの予定も取り消されます。${b.cancelReason ? `\n\nサロンからのメッセージ：\n${b.cancelReason}` : ""}`,
                lines: bookingLines(b),
                payments: paymentsOf(b, false),
                note: `ご不明な点は ${b.salonName} へ直接お問い合わせください${b.salonPhone ? `（${b.salonPhone}）` : ""}。`,
                link: history,
              }
            : {
                subject: `【Salon Navi】ご予約をキャンセルしました（${b.salonName}）`,
                lead: `${name}\n\n${b.cancelEnteredBySalon ? `${b.salonName} で、` : ""}以下のご予約のキャンセルを承りました。添付のカレンダーファイル（.ics）を開くと、カレンダーの予定も取り消されます。${b.cancelEnteredBySalon && b.cancelReason ? `\n\nサロンからのメッセージ：\n${b.cancelReason}` : ""}`,
                lines: bookingLines(b),
                payments: paymentsOf(b, false),
                // The agreed fees decide what a late cancellation costs: said again here.
                policy: b.paymentPolicyLines,
                note: "またのご利用をお待ちしております。",
                link: history,
              },
    reminder: {
      subject: `【Salon Navi】明日のご予約のお知らせ（${b.salonName}）`,
      lead: `${name}\n\n明日のご予約のお知らせです。ご来店をお待ちしております。`,
      lines: bookingLines(b),
      note: `キャンセルポリシー：${policy(b)}`,
      payments: paymentsOf(b, true),
      policy: b.paymentPolicyLines,
      link: history,
    },
  };
  return compose(b.customerEmail, parts[kind]);
}

export function previousLines(previous: PreviousBookingTime | null, timeZone: string): string[] {
  if (!previous) return [];
  return [
    `変更前の日時：${formatBookingTime(previous.startsAt, previous.endsAt, timeZone)}`,
    ...(previous.staffName ? [`変更前のスタッフ：${previous.staffName}`] : []),
    ...(previous.menuNames.length > 0
      ? [`変更前のメニュー：${previous.menuNames.join("、")}`]
      : []),
  ];
}

/**
 * The visitor's mail after a move (time, stylist or menus): by the salon,
 * or their own change confirmed. The attached .ics updates the event.
 */
export function renderVisitorMovedMail(
  by: "customer" | "salon",
  b: BookingMailDetails,
  previous: PreviousBookingTime | null,
  publicUrl: string,
): Mail {
  const name = b.customerName ? `${b.customerName} 様` : "お客様";
  const calendar =
    "添付のカレンダーファイル（.ics）を開くと、カレンダーの予定も新しい内容に変わります。";
  return compose(b.customerEmail, {
    subject:
      by === "salon"
        ? `【Salon Navi】サロンがご予約の内容を変更しました（${b.salonName}）`
        : `【Salon Navi】ご予約の変更を承りました（${b.salonName}）`,
    lead:
      by === "salon"
        ? `${name}\n\n${b.salonName} より、ご予約の内容が以下のとおり変更されました。${calendar}ご都合が合わない場合はサロンへ直接ご連絡ください${b.salonPhone ? `（${b.salonPhone}）` : ""}。`
        : `${name}\n\nご予約の変更を承りました。変更後のご予約内容は以下のとおりです。${calendar}`,
    lines: [...bookingLines(b), ...previousLines(previous, b.timeZone)],
    payments: paymentsOf(b, true),
    note: `キャンセルポリシー：${policy(b)}`,
    link: { label: "予約履歴を見る", url: `${publicUrl}/account/history` },
  });
}

/** The notice to the salon (its booking address or owners) of a new, cancelled or moved booking. */
export function renderOwnerBookingNotice(
  kind: Exclude<BookingMailKind, "reminder" | "approved"> | "moved",
  b: BookingMailDetails,
  to: string,
  previous: PreviousBookingTime | null = null,
): Mail {
  const customer = [
    `お客様：${b.customerName}`,
    `電話番号：${b.customerPhone}`,
    `メールアドレス：${b.customerEmail}`,
    ...(b.notes ? [`ご要望：${b.notes}`] : []),
  ];
  if (kind === "moved") {
    return compose(to, {
      subject: `【Salon Navi】お客様がご予約を変更しました（${b.salonName}・${formatBookingTime(b.startsAt, b.endsAt, b.timeZone)}）`,
      lead: `${b.salonName} のご予約を、お客様が以下のとおり変更しました。変更前の時間は再び予約を受け付けています。`,
      lines: [...bookingLines(b), ...previousLines(previous, b.timeZone), ...customer],
      payments: paymentsOf(b, true),
    });
  }
  if (kind === "confirmed" && b.approval === "pending") {
    return compose(to, {
      subject: `【Salon Navi】承認待ちの新しいご予約（${b.salonName}・${formatBookingTime(b.startsAt, b.endsAt, b.timeZone)}）`,
      lead: `${b.salonName} に、承認が必要な新しいご予約（仮予約）が入りました。このお時間は確保されています。予約の詳細ページで「承認する」か「承認しない」を選んでください。お客様にはその結果をメールでお知らせします。`,
      lines: [`状態：仮予約（承認待ち）`, ...bookingLines(b), ...customer],
      payments: paymentsOf(b, true),
      ...(b.ownerBookingUrl
        ? { link: { label: "予約の詳細を開く（承認・お断り）", url: b.ownerBookingUrl } }
        : {}),
    });
  }
  if (kind === "confirmed") {
    return compose(to, {
      subject: `【Salon Navi】新しいご予約（${b.salonName}・${formatBookingTime(b.startsAt, b.endsAt, b.timeZone)}）`,
      lead: `${b.salonName} に新しいご予約が入りました。`,
      lines: [...bookingLines(b), ...customer],
      payments: paymentsOf(b, true),
      policy: b.paymentPolicyLines,
    });
  }
  return compose(to, {
    subject: `【Salon Navi】ご予約のキャンセル（${b.salonName}・${formatBookingTime(b.startsAt, b.endsAt, b.timeZone)}）`,
    lead: `${b.salonName} のご予約がキャンセルされました。この時間は再び予約を受け付けています。`,
    lines: [
      ...bookingLines(b),
      ...customer,
      ...(b.cancelReason ? [`キャンセル理由：${b.cancelReason}`] : []),
    ],
    payments: paymentsOf(b, false),
  });
}
