import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { LocalFileError } from "../../errors.js";
import { composeMail } from "./compose.js";
import type { Delivery, DeliveryOutcome, OutgoingMail } from "./delivery.js";

// --outbox <dir> (docs/reminders.md "Delivery"): each message composed exactly as it would be
// sent (nodemailer's MailComposer: the same MIME, headers and Message-ID) and written to one
// .eml file, nothing sent. An outbox is a delivery like a relay — another tool sends the
// files — so its messages are recorded in the ledger too; `--plan` is the preview that
// records nothing.

/** A file name from the Message-ID: the same message always lands in the same file. */
const fileName = (mail: OutgoingMail): string => `${mail.kind}-${mail.messageId.replace(/^<|@.*$/g, "")}.eml`;

export async function openOutboxDelivery(dir: string): Promise<Delivery> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw LocalFileError.fromSystem(error, dir, "create the outbox");
  }
  return {
    describe: dir,
    concurrency: 4,
    async verify() {},
    async send(mail: OutgoingMail, beforeData: () => Promise<void>): Promise<DeliveryOutcome> {
      const bytes = (await composeMail(mail)).raw;
      const path = join(dir, fileName(mail));
      // The claim, before the file: a file that exists was claimed (docs/reminders.md "Exactly once").
      try {
        await beforeData();
      } catch (cause) {
        return { status: "withheld", cause };
      }
      // Written beside, then renamed: a killed run never leaves half a message to be sent.
      const temp = `${path}.tmp-${process.pid}`;
      try {
        await writeFile(temp, bytes, { mode: 0o600 });
        await rename(temp, path);
      } catch (error) {
        await rm(temp, { force: true }).catch(() => undefined);
        throw LocalFileError.fromSystem(error, path, "write");
      }
      return { status: "sent", response: path };
    },
    async close() {},
  };
}
