// `{{name}}` placeholders of the reminder and digest templates (docs/reminders.md
// "Templates"). A template naming a placeholder that does not exist is refused when it is
// read, before anything is asked or sent, rather than mailing "{{frist_name}}" to 2,000 people.

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;

/** The names a template uses, in order of first use. */
export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/**
 * Fills the placeholders: `escape` is applied to every value except those in `markup` (HTML
 * that was built from escaped values, e.g. the table of pairs); a name with no value becomes
 * the empty string (a column left blank in the file).
 */
export function fillTemplate(
  template: string,
  values: Readonly<Record<string, string>>,
  escape: (text: string) => string = (text) => text,
  markup: Readonly<Record<string, string>> = {},
): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    if (Object.hasOwn(markup, name)) return markup[name]!;
    return escape(Object.hasOwn(values, name) ? values[name]! : "");
  });
}
