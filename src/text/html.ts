// Text placed into HTML (docs/reminders.md "Templates"): every value a mail's HTML part shows
// comes from a file or the service and is escaped here, once. Bidirectional controls (U+202A–
// U+202E, U+2066–U+2069, U+200E/U+200F) are written as character references: a name holding
// a right-to-left override then shows in the source as what it is, and the pages that show
// values isolate them in <bdi> so that one name cannot reverse the text around it.

const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes for element content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return (
    text
      .replace(/[&<>"']/g, (c) => ENTITIES[c]!)
      .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`)
      // eslint-disable-next-line no-control-regex -- control characters are what this replaces
      .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, "\ufffd")
  );
}
