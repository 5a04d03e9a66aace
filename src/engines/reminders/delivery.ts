// Where the messages of `progress notify` go (docs/reminders.md "Delivery"): an SMTP relay
// (smtp.ts) or a directory of .eml files (outbox.ts). A delivery says what became of each
// message in the words the ledger needs (ledger.ts): taken, refused (try again next run),
// ambiguous (the transaction was under way when it broke: never re-sent by itself), or not
// handed over at all because the server cannot be reached (try again; the run stops).
//
// The claim of a message (its *sending* entries) is made inside its transaction: `send` calls
// `beforeData` once the server has agreed to take this message's data (SMTP's 354 after MAIL
// FROM, RCPT TO and DATA; for an outbox, before its file is written) and sends not a byte of
// the data until it resolves. So a message whose claim was written was begun at the server,
// and a run killed before that leaves nothing recorded and nothing the server could deliver
// (no end of data): the next run sends it (docs/reminders.md "Exactly once").

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
  | { status: "unreachable"; reason: string }
  /** `beforeData` failed: the transaction was abandoned before its data (the server has nothing to deliver). */
  | { status: "withheld"; cause: unknown };

export interface Delivery {
  /** "smtp://relay.example.com:587" (no credentials) or the outbox directory, for messages. */
  readonly describe: string;
  /** How many messages may be in flight at once (the pool's connections). */
  readonly concurrency: number;
  /** Checks the server before anything is claimed: connection, STARTTLS, authentication. */
  verify(): Promise<void>;
  /**
   * Sends one message; `beforeData` is called at most once, when the data is about to go, and a
   * failure before that call means the message cannot have been taken (refused or unreachable,
   * never ambiguous).
   */
  send(mail: OutgoingMail, beforeData: () => Promise<void>): Promise<DeliveryOutcome>;
  close(): Promise<void>;
}
