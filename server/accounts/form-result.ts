import { data } from "react-router";
import { authErrorMessage } from "../../common/auth-errors";
import { AuthError } from "./auth-error";

/**
 * The answer of a failed account form: the Japanese message of the error
 * code at the top of the form, the typed values kept (never passwords), and
 * a 4xx status. Errors that are not identity errors go on to the error screen.
 */
export function authFailure<V extends Record<string, string>>(error: unknown, values: V) {
  if (!(error instanceof AuthError)) throw error;
  return data(
    { errors: { form: authErrorMessage(error.code) } as Record<string, string>, values },
    { status: error.status },
  );
}

/** Fields of a form as strings, for re-filling it after a failed submit. */
export function formValues<K extends string>(form: FormData, keys: readonly K[]) {
  return Object.fromEntries(keys.map((key) => [key, String(form.get(key) ?? "")])) as Record<
    K,
    string
  >;
}
