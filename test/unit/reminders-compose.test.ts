import { describe, expect, it } from "vitest";
import { composeMail } from "../../src/engines/reminders/compose.js";
import type { OutgoingMail } from "../../src/engines/reminders/delivery.js";
import { reminderMail } from "../helpers/reminder-mail.js";

// The reminder's bytes joined by simadmin (src/engines/reminders/compose.ts) against nodemailer
// streaming the same tree of MIME nodes: equal but for the random boundary and the Date header.

const base = reminderMail;

const cases: [string, Partial<OutgoingMail>][] = [
  ["plain ASCII (7bit parts)", {}],
  [
    "accents, markup and a long subject",
    {
      from: "Trainïng Ünit <training@example.test>",
      subject: `Due today: Überprüfung <b>& ${"x".repeat(120)}`,
      text: "line with ünïcode and a very long line ".repeat(9),
      html: "<p>Hi &amp; ü</p>".repeat(40),
    },
  ],
  [
    "right-to-left text and marks",
    { subject: "تذكير \u200f", text: "مرحبا بك في التدريب\n".repeat(20), html: "<bdi>مرحبا</bdi>".repeat(30) },
  ],
  [
    "dots, CRLF, tabs, trailing spaces, = and long words",
    {
      text: `.leading dot\n..two\r\nCRLF line\n\ttab   trailing   \n${"x".repeat(200)}`,
      html: `=equals= <a href="x">${"y".repeat(300)}`,
    },
  ],
];

const normalized = (raw: Buffer): string =>
  raw
    .toString("utf8")
    .replace(/--_NmP-[0-9a-f]+-Part_/g, "BOUNDARY")
    .replace(/^Date: .*$/m, "Date: -");

describe("reminder MIME joined without streams", () => {
  it.each(cases)("%s: the same bytes as nodemailer's stream", async (_, change) => {
    const mail = { ...base, ...change };
    const fast = await composeMail(mail);
    const streamed = await composeMail(mail, { streamed: true });
    expect(fast.joined).toBe(true);
    expect(streamed.joined).toBe(false);
    expect(normalized(fast.raw)).toBe(normalized(streamed.raw));
    expect(fast.envelope).toEqual(streamed.envelope);
    expect(fast.raw.toString("utf8")).toContain("Content-Type: multipart/alternative");
  });
});
