import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerSession } from "smtp-server";
import { makeCertificates, type TestCertificates } from "./tls.js";

// A real SMTP server on 127.0.0.1 for the reminder tests (docs/reminders.md): smtp-server (the
// nodemailer project's server library) offering STARTTLS with a certificate of the tests' own
// private CA and requiring AUTH; each message it accepts is read back with mailparser. Faults
// on request: recipients refused at RCPT TO, the connection dropped in the middle of DATA.

export const SMTP_USER = "relay-user";
export const SMTP_PASSWORD = "s3cret-Pa55%word";

export interface ReceivedMail {
  envelopeTo: string[];
  parsed: ParsedMail;
  raw: Buffer;
}

export interface TestSmtp {
  port: number;
  /** smtp://user:password@127.0.0.1:port (the password URL-encoded). */
  url: string;
  /** The private CA's PEM file, for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  received: ReceivedMail[];
  /** Recipients refused with 550 at RCPT TO. */
  refuse: Set<string>;
  /** Drop the connection in the middle of DATA of the next message to this recipient (once). */
  dropDuringDataTo: Set<string>;
  /**
   * From the message after the next `after` ones on, DATA is read but never answered, and
   * `onHeld` is called once: the moment to kill the sender (it cannot know the outcome).
   */
  hold: { after: number; onHeld: () => void } | undefined;
  /**
   * Called with the recipients of each message read whole, before the server answers 250:
   * the moment to break something else (the sender's state store) while the message is taken.
   */
  beforeAccept: ((to: string[]) => void) | undefined;
  /** Refuse AUTH with a 535 that repeats the password tried (as careless relays do). */
  echoPassword: boolean;
  /** Refuse every sender with 553 at MAIL FROM (after a login that worked). */
  refuseSender: boolean;
  /** Sessions that logged in, and whether they were secure (STARTTLS) when they did. */
  logins: { secure: boolean }[];
  close(): Promise<void>;
}

let certificates: TestCertificates | undefined;

export async function startTestSmtp(): Promise<TestSmtp> {
  certificates ??= makeCertificates();
  const certs = certificates;
  const received: ReceivedMail[] = [];
  const refuse = new Set<string>();
  const dropDuringDataTo = new Set<string>();
  const logins: { secure: boolean }[] = [];
  const state: {
    hold: TestSmtp["hold"];
    held: boolean;
    data: number;
    beforeAccept: TestSmtp["beforeAccept"];
    echoPassword: boolean;
    refuseSender: boolean;
  } = {
    hold: undefined,
    held: false,
    data: 0,
    beforeAccept: undefined,
    echoPassword: false,
    refuseSender: false,
  };
  const server = new SMTPServer({
    secure: false,
    key: certs.signed.key,
    cert: certs.signed.cert,
    authMethods: ["PLAIN", "LOGIN"],
    // No AUTH before STARTTLS (the library's default): the password never crosses in clear.
    allowInsecureAuth: false,
    logger: false,
    disableReverseLookup: true,
    onAuth(auth, session, callback) {
      if (state.echoPassword) return callback(new Error(`no login ${auth.username} with password ${auth.password}`));
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) {
        logins.push({ secure: session.secure });
        return callback(null, { user: auth.username });
      }
      return callback(new Error("Invalid username or password"));
    },
    onMailFrom(_address, _session, callback) {
      if (!state.refuseSender) return callback();
      const error = new Error("5.7.1 sender not allowed") as Error & { responseCode: number };
      error.responseCode = 553;
      return callback(error);
    },
    onRcptTo(address, _session, callback) {
      if (refuse.has(address.address.toLowerCase())) {
        const error = new Error("5.1.1 mailbox unavailable") as Error & { responseCode: number };
        error.responseCode = 550;
        return callback(error);
      }
      callback();
    },
    onData(stream, session: SMTPServerSession, callback) {
      const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
      const drop = to.find((t) => dropDuringDataTo.has(t));
      if (drop !== undefined) {
        dropDuringDataTo.delete(drop);
        // Part of the message has arrived; the connection goes away before the final dot is answered.
        stream.once("data", () => findSocket(server, session)?.destroy());
        stream.on("data", () => {});
        return;
      }
      if (state.hold && state.data++ >= state.hold.after) {
        stream.on("data", () => {});
        stream.on("end", () => {
          if (!state.held) {
            state.held = true;
            state.hold?.onHeld();
          }
        });
        return;
      }
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw, { skipTextToHtml: true })
          .then((parsed) => {
            received.push({ envelopeTo: to, parsed, raw });
            state.beforeAccept?.(to);
            callback(null, "Message queued");
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://${SMTP_USER}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${port}`,
    caFile: certs.caFile,
    received,
    refuse,
    dropDuringDataTo,
    logins,
    get hold() {
      return state.hold;
    },
    set hold(value) {
      state.hold = value;
      state.held = false;
      state.data = 0;
    },
    get beforeAccept() {
      return state.beforeAccept;
    },
    set beforeAccept(value) {
      state.beforeAccept = value;
    },
    get echoPassword() {
      return state.echoPassword;
    },
    set echoPassword(value) {
      state.echoPassword = value;
    },
    get refuseSender() {
      return state.refuseSender;
    },
    set refuseSender(value) {
      state.refuseSender = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The socket of a session: smtp-server keeps its connections in a set on the server. */
function findSocket(server: SMTPServer, session: SMTPServerSession): { destroy(): void } | undefined {
  const connections = (server as unknown as { connections: Set<{ id: string; _socket: { destroy(): void } }> }).connections;
  for (const connection of connections) if (connection.id === session.id) return connection._socket;
  return undefined;
}
