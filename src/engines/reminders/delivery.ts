// Where the messages of `progress notify` go (docs/reminders.md "Delivery"): an SMTP relay
// (smtp.ts) or a directory of .eml files (outbox.ts). A delivery says what became of each
// message in the words the ledger needs (ledger.ts): taken, refused (try again next run),
// ambiguous (the transaction was under way when it broke: never re-sent by itself), or not
// handed over at all because the server cannot be reached (try again; the run stops).

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** "reminder" or "digest", for a header that lets mail rules file them. */
  kind: string;
}

export type DeliveryOutcome =
  | { status: "sent"; response: string }
  | { status: "refused"; reason: string }
  | { status: "ambiguous"; reason: string }
  | { status: "unreachable"; reason: string };

export interface Delivery {
  /** "smtp://relay.example.com:587" (no credentials) or the outbox directory, for messages. */
  readonly describe: string;
  /** How many messages may be in flight at once (the pool's connections). */
  readonly concurrency: number;
  /** Checks the server before anything is claimed: connection, STARTTLS, authentication. */
  verify(): Promise<void>;
  send(mail: OutgoingMail): Promise<DeliveryOutcome>;
  close(): Promise<void>;
}
