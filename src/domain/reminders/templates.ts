import { escapeHtml } from "../../text/html.js";
import type { DigestMessage, NotifyMessage, OpenPair, ReminderMessage } from "./grouping.js";
import { daysOverdue } from "./grouping.js";
import { fillTemplate, placeholdersOf } from "./placeholders.js";
import { dayText, describeStep, stepName } from "./schedule.js";

// The words of a reminder and a digest (docs/reminders.md "Templates"): a subject, a text
// part and an HTML part per kind, built in or from `--template <dir>`. The HTML is a plain
// table layout with inline styles and no remote image or script, so that it reads the same in
// Outlook, Gmail and a terminal mail client; every value in it is escaped (text/html.ts) and
// isolated in <bdi>. Pure: the message and its day come in, strings go out.

export interface TemplateSet {
  subject: string;
  text: string;
  html: string;
}

export interface Templates {
  reminder: TemplateSet;
  digest: TemplateSet;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** Placeholders every reminder template may use; the file's own columns come on top. */
export const REMINDER_PLACEHOLDERS = [
  "email",
  "userId",
  "dueDate",
  "step",
  "when",
  "dueLine",
  "count",
  "pairs",
  "today",
] as const;
export const DIGEST_PLACEHOLDERS = ["manager", "today", "count", "overdue", "trainees", "pairs"] as const;

const REMINDER_TEXT = `Hello,

{{when}}: {{count}} simulation(s) assigned to you {{dueLine}}.

{{pairs}}

This reminder was sent by your training administrator.
`;

const REMINDER_HTML = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{{subject}}</title></head>
<body style="margin:0;padding:0;background:#f4f4f4;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f4;"><tr><td align="center" style="padding:16px;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;font-family:Arial,Helvetica,sans-serif;font-size:15px;color:#222222;">
<tr><td style="padding:20px 24px 8px 24px;font-size:18px;font-weight:bold;">{{when}}</td></tr>
<tr><td style="padding:0 24px 12px 24px;">{{count}} simulation(s) assigned to you {{dueLine}}.</td></tr>
<tr><td style="padding:0 24px 20px 24px;">{{pairs}}</td></tr>
<tr><td style="padding:0 24px 20px 24px;font-size:12px;color:#666666;">This reminder was sent by your training administrator.</td></tr>
</table></td></tr></table>
</body></html>
`;

const DIGEST_TEXT = `Hello,

Training digest for {{today}}: {{count}} open assignment(s) of {{trainees}} trainee(s), {{overdue}} overdue.

{{pairs}}

This digest was sent by your training administrator.
`;

const DIGEST_HTML = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{{subject}}</title></head>
<body style="margin:0;padding:0;background:#f4f4f4;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f4;"><tr><td align="center" style="padding:16px;">
<table role="presentation" width="640" cellpadding="0" cellspacing="0" style="max-width:640px;background:#ffffff;font-family:Arial,Helvetica,sans-serif;font-size:15px;color:#222222;">
<tr><td style="padding:20px 24px 8px 24px;font-size:18px;font-weight:bold;">Training digest for {{today}}</td></tr>
<tr><td style="padding:0 24px 12px 24px;">{{count}} open assignment(s) of {{trainees}} trainee(s), {{overdue}} overdue.</td></tr>
<tr><td style="padding:0 24px 20px 24px;">{{pairs}}</td></tr>
<tr><td style="padding:0 24px 20px 24px;font-size:12px;color:#666666;">This digest was sent by your training administrator.</td></tr>
</table></td></tr></table>
</body></html>
`;

export const BUILT_IN_TEMPLATES: Templates = {
  reminder: { subject: "{{when}}: {{count}} simulation(s) {{dueLine}}", text: REMINDER_TEXT, html: REMINDER_HTML },
  digest: { subject: "Training digest {{today}}: {{count}} open, {{overdue}} overdue", text: DIGEST_TEXT, html: DIGEST_HTML },
};

/** The subject, once filled, may be placed in the bodies (the HTML <title>). */
const INTERNAL = ["subject"];

/** The first placeholder of a set that is not known, or undefined. */
export function unknownPlaceholder(
  set: TemplateSet,
  known: readonly string[],
): { part: keyof TemplateSet; name: string } | undefined {
  for (const part of ["subject", "text", "html"] as const) {
    const name = placeholdersOf(set[part]).find((n) => !known.includes(n) && !INTERNAL.includes(n));
    if (name !== undefined) return { part, name };
  }
  return undefined;
}

const cell = (text: string, style = ""): string =>
  `<td style="padding:6px 8px;border-bottom:1px solid #dddddd;${style}"><bdi>${escapeHtml(text)}</bdi></td>`;
const headCell = (text: string): string =>
  `<th align="left" style="padding:6px 8px;border-bottom:2px solid #bbbbbb;font-size:13px;">${escapeHtml(text)}</th>`;
const table = (head: readonly string[], rows: readonly string[]): string =>
  `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;font-size:14px;">` +
  `<tr>${head.map(headCell).join("")}</tr>${rows.join("")}</table>`;
const linkCell = (link: string | undefined): string =>
  link === undefined
    ? ""
    : `<td style="padding:6px 8px;border-bottom:1px solid #dddddd;"><a href="${escapeHtml(link)}" style="color:#0b57d0;">Start</a></td>`;

const stateWords = (pair: OpenPair): string =>
  pair.state === "in-progress" ? "started, not completed" : pair.state === "overdue" ? "overdue" : "not started";

function reminderPairs(message: ReminderMessage): { text: string; html: string } {
  const withLinks = message.pairs.some((p) => p.link !== undefined);
  const text = message.pairs
    .map((p) => `- ${p.row.simulationId} (${stateWords(p)}, due ${p.row.dueDate ?? "-"})${p.link ? `\n  ${p.link}` : ""}`)
    .join("\n");
  const rows = message.pairs.map(
    (p) =>
      `<tr>${cell(p.row.simulationId)}${cell(stateWords(p))}${cell(p.row.dueDate ?? "", "white-space:nowrap;")}${linkCell(p.link)}</tr>`,
  );
  return { text, html: table(["Simulation", "State", "Due", ...(withLinks ? [""] : [])], rows) };
}

function digestPairs(message: DigestMessage): { text: string; html: string } {
  const overdueText = (p: OpenPair): string => {
    const days = daysOverdue(p.row.dueDate, message.day);
    return days > 0 ? `${days} day${days === 1 ? "" : "s"} overdue` : stateWords(p);
  };
  const trainee = (p: OpenPair): string => p.row.extra.email || p.row.userId;
  const text = message.pairs
    .map((p) => `- ${trainee(p)}: ${p.row.simulationId}, due ${p.row.dueDate ?? "-"}, ${overdueText(p)}`)
    .join("\n");
  const rows = message.pairs.map(
    (p) =>
      `<tr>${cell(trainee(p))}${cell(p.row.simulationId)}${cell(p.row.dueDate ?? "", "white-space:nowrap;")}${cell(overdueText(p))}</tr>`,
  );
  return { text, html: table(["Trainee", "Simulation", "Due", "State"], rows) };
}

/** The values of a message's placeholders (plain text; escaped when placed in HTML). */
export function messageValues(message: NotifyMessage, today: number): Record<string, string> {
  if (message.kind === "digest") {
    return {
      manager: message.to,
      today: dayText(today),
      count: String(message.pairs.length),
      overdue: String(message.pairs.filter((p) => daysOverdue(p.row.dueDate, message.day) > 0).length),
      trainees: String(new Set(message.pairs.map((p) => p.row.userId)).size),
    };
  }
  const first = message.pairs[0]!;
  const step = message.step;
  return {
    ...first.row.extra,
    email: message.to,
    userId: first.row.userId,
    dueDate: first.row.dueDate ?? "",
    step: stepName(step),
    when: step > 0 ? "Reminder" : step === 0 ? "Due today" : "Overdue",
    dueLine:
      step > 0
        ? `due in ${step} day${step === 1 ? "" : "s"}, on ${first.row.dueDate ?? ""}`
        : step === 0
          ? `due today, ${first.row.dueDate ?? ""}`
          : `${describeStep(step)} (due ${first.row.dueDate ?? ""})`,
    count: String(message.pairs.length),
    today: dayText(today),
  };
}

/** Subject, text and HTML of one message. */
export function renderMail(message: NotifyMessage, templates: Templates, today: number): RenderedMail {
  const set = message.kind === "digest" ? templates.digest : templates.reminder;
  const values = messageValues(message, today);
  const pairs = message.kind === "digest" ? digestPairs(message) : reminderPairs(message);
  // A subject is one header line: no value may end it (header injection) or hide in it.
  const subject = fillTemplate(set.subject, values)
    // eslint-disable-next-line no-control-regex -- control characters are exactly what must not reach a header
    .replace(/[\r\n\t\x00-\x1f\x7f]+/g, " ")
    .trim();
  return {
    subject,
    text: fillTemplate(set.text, { ...values, subject }, undefined, { pairs: pairs.text }),
    html: fillTemplate(set.html, { ...values, subject }, escapeHtml, { pairs: pairs.html }),
  };
}
