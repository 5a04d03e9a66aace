// Text from the service is untrusted: it must not drive the user's terminal (escape
// sequences) nor the user's spreadsheet (formula injection). docs/cli-contract.md, "Output".

// C0 controls except tab and newline, DEL, and C1 controls (which include CSI, 0x9b); and the
// Unicode bidirectional controls (U+202E RIGHT-TO-LEFT OVERRIDE from the
// service turned "exe.txt" into what reads as "txt.exe"): ALM U+061C, LRM/RLM U+200E–U+200F,
// the embeddings and overrides U+202A–U+202E and the isolates U+2066–U+2069 (the "Trojan
// Source" set, Unicode UAX #9).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Makes control characters visible (`\x1b` → "\u001b", U+202E → "\u202e") so they cannot reach a terminal raw. */
export function escapeControlChars(text: string): string {
  return text.replace(CONTROL_CHARS, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** For single-line contexts (table cells, error lines): newlines and tabs become visible too. */
export function escapeForLine(text: string): string {
  return escapeControlChars(text).replace(/\n/g, "\\n").replace(/\t/g, "\\t");
}

const FORMULA_START = /^[=+\-@\t\r]/;
/** A cell the guard changed: one `'` more than the original, before a formula start. */
const GUARDED = /^'+[=+\-@\t\r]/;

/**
 * OWASP's advice for CSV injection: a cell that a spreadsheet would read as a formula is
 * prefixed with a single quote. Only strings are touched: a real number such as -5 stays a
 * number (it cannot carry a formula). A value that already starts with quotes before such a
 * character gets one more, so that unguardCsvCell restores every value exactly.
 */
export function neutralizeCsvCell(value: string): string {
  return FORMULA_START.test(value) || GUARDED.test(value) ? `'${value}` : value;
}

/**
 * The inverse of neutralizeCsvCell, for a CSV we wrote ourselves and the user corrected
 * (`<file>.errors.csv` imported again, docs/cli-contract.md "Users CSV"): `'-Smith` → `-Smith`.
 */
export function unguardCsvCell(value: string): string {
  return GUARDED.test(value) ? value.slice(1) : value;
}
