// How `users sync` tells users apart (docs/users-sync.md "Matching users"). Pure.

/**
 * Characters that change an address's bytes but not what a person reads: soft hyphen,
 * zero-width spaces and joiners, direction marks, the BOM.
 */
export const INVISIBLE_CHARACTERS = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/g;

/**
 * The key a user is matched by: the address as a person reads it — Unicode NFC (é typed one
 * way or the other is one letter), invisible characters left out, case ignored (the users
 * CSV's duplicate rule). Two roster rows with one key are one user written twice.
 */
export const keyOf = (email: string): string => email.normalize("NFC").replace(INVISIBLE_CHARACTERS, "").toLowerCase();
