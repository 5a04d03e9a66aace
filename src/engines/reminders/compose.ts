import type { OutgoingMail } from "./delivery.js";

// One message's bytes as nodemailer's MailComposer builds them (MIME, headers, the
// deterministic Message-ID): the same for an SMTP relay (smtp.ts) and an --outbox file
// (outbox.ts), so that a file another tool sends is the message simadmin would have sent.

export interface ComposedMail {
  envelope: { from: string; to: string[] };
  raw: Buffer;
}

type Composer = typeof import("nodemailer/lib/mail-composer").default;
let composer: Promise<Composer> | undefined;

export async function composeMail(mail: OutgoingMail): Promise<ComposedMail> {
  const MailComposer = await (composer ??= import("nodemailer/lib/mail-composer").then((m) => m.default));
  const node = new MailComposer({
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: mail.messageId,
    headers: { "X-Simadmin-Kind": mail.kind, "Auto-Submitted": "auto-generated" },
  }).compile();
  node.keepBcc = false;
  const envelope = node.getEnvelope();
  return { envelope: { from: envelope.from || "", to: envelope.to }, raw: await node.build() };
}
