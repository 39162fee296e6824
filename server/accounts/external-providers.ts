import type { GenericOAuthConfig } from "better-auth/plugins";
import type { Config } from "../config";

/** Labels of the external sign-in buttons, by provider id. */
export const externalProviderLabels = { google: "Google", line: "LINE" } as const;
export type ExternalProviderId = keyof typeof externalProviderLabels;

/**
 * Google and LINE as OpenID Connect providers found through discovery at
 * their issuer. A provider without a client id and secret is left out, so
 * its button is not shown. Tests point an issuer at a local OIDC server.
 * LINE's authorization request carries `bot_prompt=aggressive`: LINE Login
 * then offers the salon site's official account as a friend on the consent
 * screen, the step that lets us send LINE messages at all (issue 41 §1).
 */
export function externalProviders(config: Config): GenericOAuthConfig[] {
  const candidates = [
    {
      providerId: "google",
      clientId: config.GOOGLE_CLIENT_ID,
      clientSecret: config.GOOGLE_CLIENT_SECRET,
      issuer: config.GOOGLE_ISSUER,
      authorizationUrlParams: undefined,
    },
    {
      providerId: "line",
      clientId: config.LINE_CLIENT_ID,
      clientSecret: config.LINE_CLIENT_SECRET,
      issuer: config.LINE_ISSUER,
      authorizationUrlParams: { bot_prompt: "aggressive" },
    },
  ];
  return candidates.flatMap(
    ({ providerId, clientId, clientSecret, issuer, authorizationUrlParams }) =>
      clientId && clientSecret
        ? [
            {
              providerId,
              clientId,
              clientSecret,
              discoveryUrl: `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`,
              scopes: ["openid", "email", "profile"],
              pkce: true,
              ...(authorizationUrlParams ? { authorizationUrlParams } : {}),
            },
          ]
        : [],
  );
}

export function configuredProviderIds(config: Config): ExternalProviderId[] {
  return externalProviders(config).map((p) => p.providerId as ExternalProviderId);
}
