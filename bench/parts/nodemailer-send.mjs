// The baseline of bench/notify.mjs, in its own process so that its CPU is measured as
// notify's is (from /proc, at the sink's first and last message): nodemailer alone sending
// the .eml files of a directory (an --outbox run's) with its pooled transport — 3
// connections, 100 messages each, STARTTLS, AUTH — to an SMTP server on loopback.
//
// Run: node bench/parts/nodemailer-send.mjs '<{ port, user, password, caFile, from, dir }>'

import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import nodemailer from "nodemailer";

const { port, user, password, caFile, from, dir } = JSON.parse(process.argv[2]);
const names = (await readdir(dir)).filter((f) => f.endsWith(".eml"));
const messages = await Promise.all(
  names.map(async (name) => {
    const raw = await readFile(join(dir, name));
    return { raw, to: /^To: (.+)$/m.exec(raw.toString("utf8"))[1].trim() };
  }),
);
const transport = nodemailer.createTransport({
  pool: true,
  host: "127.0.0.1",
  port,
  secure: false,
  auth: { user, pass: password },
  maxConnections: 3,
  maxMessages: 100,
  tls: { ca: [await readFile(caFile, "utf8")] },
});
await Promise.all(messages.map(({ raw, to }) => transport.sendMail({ envelope: { from, to }, raw })));
transport.close();
