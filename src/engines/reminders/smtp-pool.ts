import type { ConnectionOptions } from "node:tls";
import type SMTPConnection from "nodemailer/lib/smtp-connection";

// The connections of one run to the relay (docs/reminders.md "Pacing"): nodemailer's
// SMTPConnection (STARTTLS whenever offered, AUTH), each used for one message at a time and
// closed after `maxMessages` (relays often end a session after ~100). The pool opens one only
// when none is idle, so the number open is bounded by the messages sent at once — the
// sender's `concurrency` (smtp.ts, `--connections`).
// simadmin keeps the pool itself, rather than nodemailer's pooled transport, because the
// ledger's claim goes inside each transaction — after the server's 354, before the data
// (delivery.ts) — and that moment is only reachable through a connection's own send().

export interface PoolOptions {
  host: string;
  port: number;
  secure: boolean;
  auth?: { user: string; pass: string };
  tls: ConnectionOptions;
  timeoutMs: number;
  maxMessages: number;
}

/** One open, logged-in connection. */
export interface PooledConnection {
  readonly connection: SMTPConnection;
  /** Messages begun on it. */
  messages: number;
  /** The server or the network ended it while it was idle: opened anew for the next message. */
  broken: boolean;
}

type ConnectionClass = typeof import("nodemailer/lib/smtp-connection").default;

export class SmtpPool {
  private readonly idle: PooledConnection[] = [];
  private readonly all = new Set<PooledConnection>();
  private closed = false;

  private constructor(
    private readonly Connection: ConnectionClass,
    private readonly options: PoolOptions,
  ) {}

  static async create(options: PoolOptions): Promise<SmtpPool> {
    const { default: Connection } = await import("nodemailer/lib/smtp-connection");
    return new SmtpPool(Connection, options);
  }

  /** An idle connection, or a new one (connected and logged in); rejects with nodemailer's error. */
  async acquire(): Promise<PooledConnection> {
    for (let c = this.idle.pop(); c !== undefined; c = this.idle.pop()) {
      if (!c.broken) return c;
      this.drop(c);
    }
    return this.open();
  }

  /** Back to the pool after a message that ended cleanly (250, or a refusal the session survived). */
  release(c: PooledConnection): void {
    if (this.closed || c.broken || c.messages >= this.options.maxMessages) {
      this.drop(c, true);
      return;
    }
    this.idle.push(c);
  }

  /** Ends a connection: QUIT when it is at rest, else closed at once (a transaction abandoned). */
  drop(c: PooledConnection, quit = false): void {
    if (!this.all.delete(c)) return;
    try {
      if (quit) c.connection.quit();
      else c.connection.close();
    } catch {
      // Already gone.
    }
  }

  close(): void {
    this.closed = true;
    for (const c of this.idle.splice(0)) this.drop(c, true);
    for (const c of [...this.all]) this.drop(c);
  }

  private open(): Promise<PooledConnection> {
    const { options } = this;
    return new Promise((resolve, reject) => {
      const connection = new this.Connection({
        host: options.host,
        port: options.port,
        secure: options.secure,
        tls: options.tls,
        connectionTimeout: options.timeoutMs,
        greetingTimeout: options.timeoutMs,
        socketTimeout: options.timeoutMs,
      });
      const pooled: PooledConnection = { connection, messages: 0, broken: false };
      let settled = false;
      const fail = (error: Error): void => {
        pooled.broken = true;
        if (settled) return; // while sending, send()'s callback has the same error
        settled = true;
        try {
          connection.close();
        } catch {
          // Already gone.
        }
        reject(error);
      };
      connection.on("error", fail);
      connection.once("end", () =>
        fail(Object.assign(new Error("the server closed the connection"), { code: "ECONNECTION", command: "CONN" })),
      );
      const ready = (): void => {
        if (settled) return;
        settled = true;
        this.all.add(pooled);
        resolve(pooled);
      };
      connection.connect((error?: Error | null) => {
        if (error) return fail(error);
        if (options.auth === undefined || !connection.allowsAuth) return ready();
        connection.login({ credentials: options.auth }, (loginError) => (loginError ? fail(loginError) : ready()));
      });
    });
  }
}
