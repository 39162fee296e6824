import { describePasswordPolicy, type PasswordPolicy } from "../../../common/password-policy";
import { TextField } from "../form/field";

/**
 * A new password and its confirmation, with the server's policy explained.
 * `clearKey` remounts the inputs after a failed submit so passwords are
 * never kept (SPEC: forms keep typed values, never passwords).
 */
export function NewPasswordFields({
  idPrefix,
  name,
  label,
  policy,
  clearKey,
  errors,
}: {
  idPrefix: string;
  name: "password" | "newPassword";
  label: string;
  policy: PasswordPolicy;
  clearKey: number | string;
  errors: Partial<Record<string, string>>;
}) {
  return (
    <>
      <TextField
        id={idPrefix}
        name={name}
        key={`${clearKey}-password`}
        type="password"
        label={label}
        autoComplete="new-password"
        hint={describePasswordPolicy(policy)}
        required
        error={errors[name]}
      />
      <TextField
        id={`${idPrefix}-confirm`}
        name="passwordConfirm"
        key={`${clearKey}-confirm`}
        type="password"
        label={`${label}（確認用）`}
        autoComplete="new-password"
        required
        error={errors.passwordConfirm}
      />
    </>
  );
}
