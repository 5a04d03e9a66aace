import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { composeMail } from "../../src/engines/reminders/compose.js";
import type { OutgoingMail } from "../../src/engines/reminders/delivery.js";
import { reminderMail } from "../helpers/reminder-mail.js";

// What a reader's mail program makes of a reminder's bytes (src/engines/reminders/compose.ts):
// the message parsed back with mailparser, field by field — the same bytes go to the relay and
// into an --outbox file (docs/reminders.md "Delivery").

const base = reminderMail;

async function roundTrip(change: Partial<OutgoingMail>) {
  const mail = { ...base, ...change };
  const composed = await composeMail(mail);
  const parsed = await simpleParser(composed.raw);
  return { composed, parsed, text: composed.raw.toString("latin1") };
}

describe("a reminder's MIME bytes, parsed back", () => {
  it("carries sender, recipient, subject, Message-ID, the two parts and the filing headers; the envelope is the bare addresses", async () => {
    const { composed, parsed, text } = await roundTrip({});
    expect(composed.joined).toBe(true);
    expect(composed.envelope).toEqual({ from: "training@example.test", to: ["ann@example.test"] });
    expect(parsed.from?.value).toEqual([{ address: "training@example.test", name: "Training" }]);
    expect(parsed.to).toMatchObject({ value: [{ address: "ann@example.test", name: "" }] });
    expect(parsed.subject).toBe("Due today");
    expect(parsed.messageId).toBe("<0123456789abcdef0123456789abcdef.simadmin@example.test>");
    expect(parsed.headers.get("x-simadmin-kind")).toBe("reminder");
    expect(parsed.headers.get("auto-submitted")).toBe("auto-generated");
    expect(parsed.headers.get("content-type")).toMatchObject({ value: "multipart/alternative" });
    expect(parsed.text).toBe("Hello Ann\nline two\n");
    expect(parsed.html).toBe("<p>Hi</p>");
    expect(parsed.attachments).toEqual([]);
    // Headers end in CRLF; the message ends with the closing boundary.
    expect(text).toMatch(/^X-Simadmin-Kind: reminder\r\nAuto-Submitted: auto-generated\r\nFrom: /);
    expect(text).toMatch(/\r\n--[^\r\n]+--\r\n$/);
  });

  it("accents, right-to-left text and a long subject come back unchanged", async () => {
    const subject = `Überprüfung fällig: تذكير \u200f ${"x".repeat(120)}`;
    const body = "Merci, Zoë — مرحبا بك في التدريب\n".repeat(12);
    const html = '<p dir="rtl"><bdi>مرحبا</bdi> &amp; ü</p>'.repeat(20);
    const { composed, parsed, text } = await roundTrip({
      from: "Trainïng Ünit <training@example.test>",
      subject,
      text: body,
      html,
      kind: "digest",
    });
    expect(composed.joined).toBe(true);
    expect(parsed.from?.value).toEqual([{ address: "training@example.test", name: "Trainïng Ünit" }]);
    expect(parsed.subject).toBe(subject);
    expect(parsed.text).toBe(body);
    expect(parsed.html).toBe(html);
    expect(parsed.headers.get("x-simadmin-kind")).toBe("digest");
    // 7-bit on the wire, no line over 78 characters.
    expect([...text].every((c) => c.charCodeAt(0) < 0x80)).toBe(true);
    expect(Math.max(...text.split("\r\n").map((l) => l.length))).toBeLessThanOrEqual(78);
  });

  it("long lines, leading dots, CRLF, tabs, trailing spaces and = survive the transfer encoding", async () => {
    const body = `.leading dot\n..two\nCRLF line\n\ttab   trailing   \n${"x".repeat(200)}\n= sign=\n`;
    const html = `=equals= <a href="x">${"y".repeat(300)}</a>`;
    const { composed, parsed, text } = await roundTrip({ text: body, html });
    expect(composed.joined).toBe(true);
    expect(parsed.text).toBe(body);
    expect(parsed.html).toBe(html);
    expect(Math.max(...text.split("\r\n").map((l) => l.length))).toBeLessThanOrEqual(78);
  });

  it("a message without an HTML part is one text part, built by nodemailer, and parses the same", async () => {
    const { composed, parsed } = await roundTrip({ html: "" });
    expect(composed.joined).toBe(false);
    expect(parsed.headers.get("content-type")).toMatchObject({ value: "text/plain" });
    expect(parsed.text).toBe("Hello Ann\nline two\n");
    expect(parsed.messageId).toBe(base.messageId);
    expect(composed.envelope).toEqual({ from: "training@example.test", to: ["ann@example.test"] });
  });

  it("streamed by nodemailer on request: the same message", async () => {
    const composed = await composeMail({ ...base, text: "ünï\n".repeat(30) }, { streamed: true });
    expect(composed.joined).toBe(false);
    const parsed = await simpleParser(composed.raw);
    expect(parsed.text).toBe("ünï\n".repeat(30));
    expect(parsed.html).toBe("<p>Hi</p>");
  });
});
