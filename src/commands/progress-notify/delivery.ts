import { UsageError } from "../../errors.js";
import type { Delivery } from "../../engines/reminders/delivery.js";
import type { CommandContext } from "../../context.js";
import { describeSmtpUrl, openSmtpDelivery } from "../../engines/reminders/smtp.js";
import { parseSmtpUrl, type NotifyOptions } from "./options.js";

// Where this run's messages go: --outbox, else --smtp / SIMADMIN_SMTP_URL. The URL's password
// is redacted from every line from the moment it is read, as the API key is
// (docs/cli-contract.md "Secrets"); messages name the server as scheme://host:port only.

export interface DeliveryChoice {
  /** "smtp://relay.example.com:587" or the outbox directory. */
  describe: string;
  open(): Promise<Delivery>;
}

export function chooseDelivery(ctx: CommandContext, options: NotifyOptions, timeoutSeconds: number): DeliveryChoice {
  const { services, printer } = ctx;
  if (options.outbox !== undefined) {
    const dir = options.outbox;
    return { describe: dir, open: async () => (await import("../../engines/reminders/outbox.js")).openOutboxDelivery(dir) };
  }
  const text = options.smtp ?? services.env.SIMADMIN_SMTP_URL;
  if (text === undefined || text.trim() === "") {
    throw new UsageError("no mail delivery: pass --smtp <url>, set SIMADMIN_SMTP_URL, or write files with --outbox <dir>", {
      hint: "--plan shows what would be sent without either",
    });
  }
  const source = options.smtp !== undefined ? "--smtp" : "SIMADMIN_SMTP_URL";
  const url = parseSmtpUrl(text, source);
  // The password is the secret; the user name often is the sender's address, shown in records.
  if (url.password !== "") {
    printer.redactor.add(url.password);
    printer.redactor.add(decodeURIComponent(url.password));
  }
  return {
    describe: describeSmtpUrl(url),
    open: () =>
      openSmtpDelivery({
        url,
        perMinute: options.perMinute,
        connections: options.connections,
        extraCaFile: services.env.NODE_EXTRA_CA_CERTS,
        timeoutSeconds,
      }),
  };
}
