import type { PasswordPolicy } from "../../common/password-policy";
import type { Config } from "../config";

/** The policy configured on the server (PASSWORD_* variables). */
export function passwordPolicyFrom(config: Config): PasswordPolicy {
  return {
    minLength: config.PASSWORD_MIN_LENGTH,
    maxLength: config.PASSWORD_MAX_LENGTH,
    requireLowercase: config.PASSWORD_REQUIRE_LOWERCASE,
    requireUppercase: config.PASSWORD_REQUIRE_UPPERCASE,
    requireNumeric: config.PASSWORD_REQUIRE_NUMERIC,
    requireNonAlphanumeric: config.PASSWORD_REQUIRE_NON_ALPHANUMERIC,
  };
}
