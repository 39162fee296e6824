/** The booking's contact fields and the note: the confirm form's names, also `draft.<name>` for a lost hold. */
export const contactFields = ["name", "nameKana", "phone", "email", "note"] as const;
export type ContactValues = Record<(typeof contactFields)[number], string>;
