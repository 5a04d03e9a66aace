import type { OutgoingMail } from "./delivery.js";

// One message's bytes as nodemailer's MailComposer builds them (MIME, headers, the
// deterministic Message-ID): the same for an SMTP relay (smtp.ts) and an --outbox file
// (outbox.ts), so that a file another tool sends is the message simadmin would have sent.
//
// nodemailer's tree of MIME nodes gives every header and chooses each part's encoding;
// simadmin joins the parts itself, as MimeNode.stream() would (the boundary lines, each part's
// headers and its quoted-printable or base64 body), instead of streaming them through a
// pipeline per part: for a reminder's two string parts the bytes are the same
// (test/unit/reminders-compose.test.ts), and streaming cost a fifth of notify's CPU per message
// (bench/notify.mjs, docs/reminders.md "Measured"). Anything else is built by nodemailer.

export interface ComposedMail {
  envelope: { from: string; to: string[] };
  raw: Buffer;
  /** Whether simadmin joined the parts (false: nodemailer streamed them). */
  joined: boolean;
}

interface Libraries {
  MailComposer: typeof import("nodemailer/lib/mail-composer").default;
  qp: typeof import("nodemailer/lib/qp");
  base64: typeof import("nodemailer/lib/base64");
}
let libraries: Promise<Libraries> | undefined;
const load = (): Promise<Libraries> =>
  (libraries ??= Promise.all([
    import("nodemailer/lib/mail-composer"),
    import("nodemailer/lib/qp"),
    import("nodemailer/lib/base64"),
  ]).then(([composer, qp, base64]) => ({ MailComposer: composer.default, qp, base64 })));

type MimeNode = ReturnType<InstanceType<Libraries["MailComposer"]>["compile"]>;

/** The bytes of a multipart node whose parts are strings, as MimeNode.stream() writes them; else undefined. */
function joinParts(root: MimeNode, { qp, base64 }: Libraries): Buffer | undefined {
  const headers = root.buildHeaders();
  if (!root.multipart || !root.boundary) return undefined;
  const out = [headers, "\r\n\r\n"];
  for (const [i, child] of root.childNodes.entries()) {
    if (child.childNodes.length > 0 || typeof child.content !== "string") return undefined;
    out.push(`${i > 0 ? "\r\n" : ""}--${root.boundary}\r\n`, `${child.buildHeaders()}\r\n\r\n`);
    const encoding = child.getTransferEncoding();
    if (encoding === "quoted-printable") out.push(qp.wrap(qp.encode(child.content), 76));
    else if (encoding === "base64") out.push(base64.wrap(base64.encode(child.content), 76));
    else out.push(child.content); // 7bit: as it is, as stream() pipes it
  }
  out.push(`\r\n--${root.boundary}--\r\n`);
  return Buffer.from(out.join(""));
}

export async function composeMail(mail: OutgoingMail, options: { streamed?: boolean } = {}): Promise<ComposedMail> {
  const libs = await load();
  const node = new libs.MailComposer({
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
  const joined = options.streamed ? undefined : joinParts(node, libs);
  return {
    envelope: { from: envelope.from || "", to: envelope.to },
    raw: joined ?? (await node.build()),
    joined: joined !== undefined,
  };
}
