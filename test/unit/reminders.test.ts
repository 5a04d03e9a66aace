import { describe, expect, it } from "vitest";
import type { ProgressRow } from "../../src/domain/progress.js";
import { dueToday } from "../../src/domain/reminders/due.js";
import { digestKey, groupDigests, groupReminders, reminderKey } from "../../src/domain/reminders/grouping.js";
import { parseSchedule, stepDueOn } from "../../src/domain/reminders/schedule.js";
import { BUILT_IN_TEMPLATES, renderMail } from "../../src/domain/reminders/templates.js";
import { escapeHtml } from "../../src/text/html.js";

// The pure rules of `progress notify` (docs/reminders.md): the ladder, what is due, grouping,
// and the words — with every value escaped in the HTML part.

const day = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
const row = (n: number, userId: string, dueDate: string | undefined, extra: Record<string, string> = {}): ProgressRow => ({
  row: n,
  userId,
  simulationId: "sim-001",
  dueDate,
  extra: { email: `${userId}@example.test`, ...extra },
});
const STEPS = [7, 1, 0, -3, -7];

describe("the schedule", () => {
  it.each([
    ["2026-11-20", 7],
    ["2026-11-26", 1],
    ["2026-11-27", 0],
    ["2026-11-30", -3],
    ["2026-12-04", -7],
    ["2026-11-21", undefined],
    ["2026-11-28", undefined],
    ["2026-12-05", undefined],
  ])("on %s a pair due 2026-11-27 is at step %s", (today, step) => {
    expect(stepDueOn("2026-11-27", day(today), STEPS)).toBe(step);
  });

  it("has no step without a due date", () => {
    expect(stepDueOn(undefined, day("2026-11-27"), STEPS)).toBeUndefined();
  });

  it.each([
    ["7,1,0,-3,-7", { steps: [7, 1, 0, -3, -7] }],
    ["-3, 14 ,+2", { steps: [14, 2, -3] }],
    ["1,1", { problem: "1 is given twice" }],
    ["x", { problem: "'x' is not a whole number of days" }],
    ["400", { problem: "400 is more than a year from the due date" }],
  ])("--schedule %s", (text, expected) => {
    expect(parseSchedule(text)).toEqual(expected);
  });
});

describe("what is due today", () => {
  const rows = [
    row(2, "ann", "2026-11-27", { boss: "m@example.test" }),
    row(3, "bob", "2026-12-10", { boss: "m@example.test" }),
    row(4, "cy", "2026-11-24"),
  ];

  it("a step due and not in the ledger is due; one already sent is not; one left sending is named, not due", () => {
    const today = day("2026-11-27");
    const fresh = dueToday({ rows, today, steps: STEPS, ledger: { status: () => undefined }, resendAmbiguous: false });
    expect(fresh.steps.map((s) => [s.row.userId, s.step])).toEqual([
      ["ann", 0],
      ["cy", -3],
    ]);
    expect(fresh.toAsk.map((r) => r.userId)).toEqual(["ann", "cy"]);

    const sent = new Map([
      [reminderKey(rows[0]!, 0), "sent" as const],
      [reminderKey(rows[2]!, -3), "sending" as const],
    ]);
    const later = dueToday({ rows, today, steps: STEPS, ledger: { status: (k) => sent.get(k) }, resendAmbiguous: false });
    expect(later.steps).toEqual([]);
    expect(later.ambiguous.map((a) => [a.row.userId, a.step])).toEqual([["cy", -3]]);
    const resend = dueToday({ rows, today, steps: STEPS, ledger: { status: (k) => sent.get(k) }, resendAmbiguous: true });
    expect(resend.steps.map((s) => [s.row.userId, s.ambiguous])).toEqual([["cy", true]]);
  });

  it("a digest due today asks every row of its manager, once a day", () => {
    const today = day("2026-11-28");
    const managerOf = (r: ProgressRow) => r.extra.boss || undefined;
    const first = dueToday({ rows, today, steps: STEPS, ledger: { status: () => undefined }, resendAmbiguous: false, managerOf });
    expect([...first.digests.keys()]).toEqual(["m@example.test"]);
    expect(first.toAsk.map((r) => r.userId)).toEqual(["ann", "bob"]);
    const done = new Map([[digestKey("M@example.test", today), "sent" as const]]);
    const again = dueToday({
      rows,
      today,
      steps: STEPS,
      ledger: { status: (k) => done.get(k) },
      resendAmbiguous: false,
      managerOf,
    });
    expect(again.digests.size).toBe(0);
    expect(again.toAsk).toEqual([]);
    expect(digestKey("m@example.test", today)).not.toBe(digestKey("m@example.test", today + 1));
  });
});

describe("messages", () => {
  it("groups one trainee's pairs of one step into one reminder, and a manager's pairs overdue first", () => {
    const a = { row: row(2, "ann", "2026-11-27"), state: "not-started" as const };
    const b = { row: { ...row(3, "ann", "2026-11-27"), simulationId: "sim-002" }, state: "in-progress" as const };
    const c = { row: row(4, "bob", "2026-11-20"), state: "overdue" as const };
    const reminders = groupReminders([
      { pair: a, to: "Ann@example.test", step: 0 },
      { pair: b, to: "ann@example.test", step: 0 },
      { pair: c, to: "bob@example.test", step: -7 },
    ]);
    expect(reminders.map((m) => [m.to, m.step, m.pairs.length])).toEqual([
      ["Ann@example.test", 0, 2],
      ["bob@example.test", -7, 1],
    ]);
    const [digest] = groupDigests(
      [
        { pair: a, manager: "m@example.test" },
        { pair: c, manager: "M@example.test" },
      ],
      day("2026-11-27"),
    );
    expect(digest!.pairs.map((p) => p.row.userId)).toEqual(["bob", "ann"]);
  });

  it("escapes hostile names in the HTML part (script, ampersand, right-to-left override) and keeps them whole in the text part", () => {
    const hostile = "<script>alert(1)</script> & Co \u202Egnp.exe";
    const pair = { row: { ...row(2, "ann", "2026-11-27"), simulationId: hostile }, state: "not-started" as const };
    const [message] = groupReminders([{ pair, to: "ann@example.test", step: 0 }]);
    const mail = renderMail(message!, BUILT_IN_TEMPLATES, day("2026-11-27"));
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co &#x202E;gnp.exe");
    expect(mail.html).not.toContain("\u202E");
    expect(mail.text).toContain(hostile);
    expect(mail.subject).toBe("Due today: 1 simulation(s) due today, 2026-11-27");
  });

  it("keeps a value from ending the subject line", () => {
    const pair = { row: row(2, "ann", "2026-11-27"), state: "not-started" as const };
    const [message] = groupReminders([{ pair, to: "ann@example.test", step: 0 }]);
    const mail = renderMail(
      message!,
      { ...BUILT_IN_TEMPLATES, reminder: { ...BUILT_IN_TEMPLATES.reminder, subject: "Hi {{name}}" } },
      0,
    );
    expect(
      renderMail(
        { ...message!, pairs: [{ ...pair, row: { ...pair.row, extra: { name: "x\r\nBcc: all@example.test" } } }] },
        { ...BUILT_IN_TEMPLATES, reminder: { ...BUILT_IN_TEMPLATES.reminder, subject: "Hi {{name}}" } },
        0,
      ).subject,
    ).toBe("Hi x Bcc: all@example.test");
    expect(mail.subject).toBe("Hi");
  });

  it.each([
    ["<b>", "&lt;b&gt;"],
    ['"q"', "&quot;q&quot;"],
    ["it's", "it&#39;s"],
    ["\u200F", "&#x200F;"],
  ])("escapeHtml(%j) is %j", (text, html) => {
    expect(escapeHtml(text)).toBe(html);
  });
});
