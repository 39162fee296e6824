/** Where the links in mails and external sign-in lead back to (identity.ts and auth.ts's hooks). */
export const authCallbacks = {
  verified: "/finish_sign_up?verified=1",
  emailChanged: "/account/edit/change-email/thanks",
  resetPassword: "/password-reset",
  signedIn: "/",
  newUser: "/account/edit",
  signInError: "/signin",
} as const;
