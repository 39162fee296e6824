import { data } from "react-router";
import { type AuthErrorCode, authErrorMessage } from "../../common/auth-errors";
import { AuthError } from "./auth-error";

/**
 * The answer of a failed account form: the Japanese message of the error
 * code at the top of the form, the typed values kept (never passwords), and
 * a 4xx status. Errors that are not identity errors go on to the error screen.
 * `onField` puts a code's message on one field instead (marked and linked
 * to it) where the form knows which input was wrong.
 */
export function authFailure<V extends Record<string, string>>(
  error: unknown,
  values: V,
  onField: Partial<Record<AuthErrorCode, { field: string; message: string }>> = {},
) {
  if (!(error instanceof AuthError)) throw error;
  const fieldError = onField[error.code];
  const errors: Record<string, string> = fieldError
    ? { [fieldError.field]: fieldError.message }
    : { form: authErrorMessage(error.code) };
  return data({ errors, values }, { status: error.status });
}

/** Fields of a form as strings, for re-filling it after a failed submit. */
export function formValues<K extends string>(form: FormData, keys: readonly K[]) {
  return Object.fromEntries(keys.map((key) => [key, String(form.get(key) ?? "")])) as Record<
    K,
    string
  >;
}
