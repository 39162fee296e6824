import { contactFields } from "../../../common/booking-contact";
import { bookingFlowHref, sameMenus } from "../../../common/booking-flow-href";
import { fieldErrors } from "../../../common/field-rules";
import type { CurrentUser } from "../../accounts/current-user";
import { formValues } from "../../accounts/form-result";
import type { Database } from "../../db/client";
import { DomainError } from "../../errors/domain-error";
import type { PaymentProvider } from "../../payments/provider.server";
import { confirmBooking } from "../booking.server";
import { CouponNotApplicableError } from "../booking-errors";
import { startBookingCheckout } from "../booking-payments.server";
import type { BookingLimits } from "../booking-rate-limit";
import { contactSchema, idempotencyKeyOf } from "../contact.schema";
import { PaymentRequiredError, PolicyConsentRequiredError } from "../payment-policy.server";
import { type FlowSalon, parseFlowParams } from "./booking-flow.server";
import { holdFromForm } from "./confirm-page.server";

/**
 * What a POST to /salons/:id/confirm ends in; the route maps it to a
 * redirect or the page again (as submitSalonForm's outcome is mapped).
 */
export type ConfirmFormOutcome =
  /** To another step; `holdBrowserKey`: bind the new hold to this browser (cookie). */
  | { kind: "redirect"; to: string; holdBrowserKey?: string }
  /** A time was refused (taken, too many holds…): the message, and what was typed for an earlier hold. */
  | { kind: "refused"; status: number; error: string; draft: Record<string, string> }
  /** The contact form again, with its errors and what was typed. */
  | {
      kind: "contact";
      status: number;
      errors: Record<string, string | undefined>;
      values: Record<string, string>;
    };

export const confirmFormMessages = {
  intent: "操作が正しくありません。もう一度お試しください。",
} as const;

/**
 * The flow's three posts. `menus`: the menu step's buttons, answered with the
 * URL of the ticked selection (same stylist, coupon and day). `hold` (or a time button, which sends
 * `start`): a hold for the ticked menus; when they are not the menus the
 * times were computed for (`shown`), nothing is held and the visitor is
 * sent to that day's times for what is ticked. `confirm`: the booking, for
 * a signed-in visitor (the route's guard).
 */
export async function submitConfirmForm(
  db: Database,
  input: {
    salon: FlowSalon;
    form: FormData;
    user: CurrentUser | null;
    now: Date;
    limits: BookingLimits;
    ip: string;
    /** The browser's hold key (a new one when it has none): a guest's hold is bound to it. */
    browserKey: string;
    /** The payment provider (null: no online payment on this server). */
    payments?: PaymentProvider | null;
    /** The public origin, and this page's path and query (the payment page's way back). */
    origin?: string;
    confirmPath?: string;
  },
): Promise<ConfirmFormOutcome> {
  const { salon, form, now } = input;
  const intent = form.get("intent") ?? (form.has("start") ? "hold" : null);
  if (intent === "menus" || intent === "hold") {
    const params = new URLSearchParams();
    for (const key of ["menu", "staff", "coupon", "date"]) {
      for (const value of form.getAll(key)) params.append(key, String(value));
    }
    const query = parseFlowParams(params);
    // The day stays: its times are shown for the new menus (or why there are none).
    if (intent === "menus") return { kind: "redirect", to: bookingFlowHref(salon.slug, query) };
    const shown = form.getAll("shown").map(String);
    if (form.has("shown") && !sameMenus(shown, query.menuIds)) {
      return {
        kind: "redirect",
        to: bookingFlowHref(salon.slug, query, [["changed", "menus"]]),
      };
    }
    const result = await holdFromForm(db, {
      salon,
      form,
      userId: input.user?.id ?? null,
      now,
      limits: input.limits,
      ip: input.ip,
      browserKey: input.browserKey,
    });
    // Refused: what was typed for an earlier hold comes back too.
    if (!result.ok) {
      return {
        kind: "refused",
        status: result.status,
        error: result.message,
        draft: draftOf(form),
      };
    }
    return { kind: "redirect", to: result.href, holdBrowserKey: input.browserKey };
  }
  if (intent === "confirm" && input.user) {
    const studentDeclared = form.get("student") === "on";
    // The 学割 box comes back ticked as it was, with what was typed.
    const values = { ...formValues(form, contactFields), student: studentDeclared ? "on" : "" };
    const parsed = contactSchema().safeParse(values);
    if (!parsed.success) {
      return { kind: "contact", status: 400, errors: fieldErrors<string>(parsed.error), values };
    }
    try {
      const request = {
        holdId: String(form.get("hold") ?? ""),
        userId: input.user.id,
        customer: {
          name: parsed.data.name,
          kana: parsed.data.nameKana,
          phone: parsed.data.phone,
          email: parsed.data.email,
        },
        notes: parsed.data.note,
        studentDeclared,
        idempotencyKey: idempotencyKeyOf(form.get("idempotencyKey")),
        // Only whether the box was ticked and which policy was read: the terms are the server's.
        policyConsent: {
          agreed: form.get("policyConsent") === "on",
          digest: policyDigestOf(form.get("policyDigest")),
        },
        now,
        limits: input.limits,
        ip: input.ip,
      };
      const booking = await confirmBooking(db, request).catch(async (error: unknown) => {
        // Payment due at booking: to the provider's page; only its answer confirms (decision 0078).
        if (!(error instanceof PaymentRequiredError)) throw error;
        const { url } = await startBookingCheckout(db, input.payments ?? null, {
          ...request,
          origin: input.origin ?? "",
          salonSlug: salon.slug,
          confirmPath: input.confirmPath ?? `/salons/${salon.slug}/confirm`,
        });
        return { paymentUrl: url };
      });
      if ("paymentUrl" in booking) return { kind: "redirect", to: booking.paymentUrl };
      return { kind: "redirect", to: `/salons/${salon.slug}/confirm/thanks?booking=${booking.id}` };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      // The consent's message stands by its checkbox; what was typed is kept either way.
      const field =
        error instanceof PolicyConsentRequiredError
          ? "policyConsent"
          : error instanceof CouponNotApplicableError && error.details?.reason === "student"
            ? "student"
            : "form";
      return { kind: "contact", status: error.status, errors: { [field]: error.message }, values };
    }
  }
  return { kind: "refused", status: 400, error: confirmFormMessages.intent, draft: {} };
}

/** The digest the page rendered (16 URL-safe characters), or null. */
function policyDigestOf(value: FormDataEntryValue | null): string | null {
  return typeof value === "string" && /^[\w-]{16}$/.test(value) ? value : null;
}

/** The contact details carried along from an earlier hold (`draft.<field>`), as they came. */
function draftOf(form: FormData): Record<string, string> {
  const draft: Record<string, string> = {};
  for (const field of contactFields) {
    const value = form.get(`draft.${field}`);
    if (typeof value === "string" && value !== "") draft[field] = value;
  }
  return draft;
}
