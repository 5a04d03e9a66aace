import type { Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import { SMTPServer, type SMTPServerSession } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Delivery, DeliveryOutcome, OutgoingMail } from "../../src/engines/reminders/delivery.js";
import { openSmtpDelivery } from "../../src/engines/reminders/smtp.js";
import { SmtpPool } from "../../src/engines/reminders/smtp-pool.js";

// The SMTP delivery and its pool of connections as a library (src/engines/reminders/smtp.ts,
// smtp-pool.ts; docs/reminders.md "Delivery", "Pacing", "Exactly once") against a real
// smtp-server on 127.0.0.1 (plain SMTP with AUTH, so no TLS handshake per test; STARTTLS and the
// private CA: test/http/reminders-smtp.test.ts). The server writes down what it sees, in order:
// connections, MAIL FROM, DATA (after which it answers 354), the first data byte, the message
// taken, the connection closed. Faults on request. No real waits: pacing runs on a fake clock.

const USER = "relay-user";
const PASSWORD = "pa ss%word";

interface Relay {
  port: number;
  log: string[];
  /** The connections that said QUIT (the polite end of a session at rest). */
  quits: number[];
  received: string[];
  /** performance.now() at each MAIL FROM (the fake clock in the pacing test). */
  mailAt: number[];
  /** The next N MAIL FROM commands are answered by the connection closing. */
  breakAtMail: number;
  refuseSender: boolean;
  refuseRcpt: Set<string>;
  refuseData: Set<string>;
  dropInData: Set<string>;
  /** Ends connection `n` from the server's side (as an idle timeout does). */
  end(n: number): void;
  /** Forgets everything: the next connection is number 1 again. */
  reset(): void;
  close(): Promise<void>;
}

async function startRelay(options: { auth: boolean; host?: string }): Promise<Relay> {
  const numbers = new Map<string, number>();
  let connections = 0;
  const relay = {
    log: [] as string[],
    quits: [] as number[],
    received: [] as string[],
    mailAt: [] as number[],
    breakAtMail: 0,
    refuseSender: false,
    refuseRcpt: new Set<string>(),
    refuseData: new Set<string>(),
    dropInData: new Set<string>(),
  };
  const nr = (session: SMTPServerSession): number => numbers.get(session.id) ?? 0;
  const socketOf = (id: string): Socket | undefined => {
    const all = (server as unknown as { connections: Set<{ id: string; _socket: Socket }> }).connections;
    for (const c of all) if (c.id === id) return c._socket;
    return undefined;
  };
  const server: SMTPServer = new SMTPServer({
    authOptional: !options.auth,
    allowInsecureAuth: true,
    hideSTARTTLS: true,
    disabledCommands: options.auth ? [] : ["AUTH"],
    logger: false,
    disableReverseLookup: true,
    onConnect(session, callback) {
      const n = ++connections;
      numbers.set(session.id, n);
      relay.log.push(`connect ${n}`);
      // Looked up when QUIT comes: a connection of an earlier test (forgotten by reset()) is not counted.
      socketOf(session.id)?.on("data", (chunk: Buffer) => {
        const now = numbers.get(session.id);
        if (now !== undefined && /^QUIT\r?$/im.test(chunk.toString("latin1"))) relay.quits.push(now);
      });
      callback();
    },
    onClose(session) {
      relay.log.push(`close ${nr(session)}`);
    },
    onAuth(auth, session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) {
        relay.log.push(`auth ${nr(session)}`);
        return callback(null, { user: auth.username });
      }
      return callback(new Error("Invalid username or password"));
    },
    onMailFrom(_address, session, callback) {
      relay.mailAt.push(performance.now());
      relay.log.push(`MAIL ${nr(session)}`);
      if (relay.breakAtMail > 0) {
        relay.breakAtMail--;
        socketOf(session.id)?.destroy();
        return;
      }
      if (relay.refuseSender) return callback(Object.assign(new Error("5.7.1 sender not allowed"), { responseCode: 550 }));
      callback();
    },
    onRcptTo(address, _session, callback) {
      if (relay.refuseRcpt.has(address.address))
        return callback(Object.assign(new Error("5.1.1 mailbox unavailable"), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      // Called as the server answers DATA with 354: from here on the client may send data.
      const n = nr(session);
      const to = session.envelope.rcptTo.map((r) => r.address).join(",");
      relay.log.push(`DATA ${n}`);
      const chunks: Buffer[] = [];
      let dropped = false;
      stream.on("data", (chunk: Buffer) => {
        if (chunks.length === 0) relay.log.push(`bytes ${n}`);
        chunks.push(chunk);
        if (relay.dropInData.delete(to)) {
          dropped = true;
          socketOf(session.id)?.destroy();
        }
      });
      stream.on("end", () => {
        if (dropped) return;
        if (relay.refuseData.has(to)) return callback(Object.assign(new Error("5.6.0 content refused"), { responseCode: 554 }));
        relay.received.push(`${to} ${Buffer.concat(chunks).toString("utf8").includes("Subject: ") ? "whole" : "cut"}`);
        relay.log.push(`queued ${n}`);
        callback(null, "2.0.0 queued as X1");
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, options.host ?? "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return Object.assign(relay, {
    port,
    end(n: number) {
      for (const [id, number] of numbers) if (number === n) socketOf(id)?.end();
    },
    reset() {
      connections = 0;
      numbers.clear();
      relay.log.length = 0;
      relay.quits.length = 0;
      relay.received.length = 0;
      relay.mailAt.length = 0;
      relay.breakAtMail = 0;
      relay.refuseSender = false;
      relay.refuseRcpt.clear();
      relay.refuseData.clear();
      relay.dropInData.clear();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay({ auth: true });
});
afterAll(async () => {
  await relay.close();
});
const open: Delivery[] = [];
afterEach(async () => {
  for (const d of open.splice(0)) await d.close();
  relay.reset();
});

async function delivery(
  change: { perMinute?: number; connections?: number; password?: string; port?: number } = {},
): Promise<Delivery> {
  const d = await openSmtpDelivery({
    url: new URL(`smtp://${USER}:${encodeURIComponent(change.password ?? PASSWORD)}@127.0.0.1:${change.port ?? relay.port}`),
    perMinute: change.perMinute ?? 0,
    connections: change.connections ?? 1,
    extraCaFile: undefined,
    timeoutSeconds: 10,
  });
  open.push(d);
  return d;
}

const mail = (to: string): OutgoingMail => ({
  from: "Training <training@example.test>",
  to,
  subject: `For ${to}`,
  text: "Due today\n",
  html: "<p>Due today</p>",
  messageId: `<${to.replace("@", ".")}.simadmin@example.test>`,
  kind: "reminder",
});

/** Sends and notes when the claim would be written, and what the server had seen by then. */
async function send(d: Delivery, to: string, beforeData?: () => Promise<void>): Promise<DeliveryOutcome & { claims?: string[] }> {
  const claims: string[] = [];
  const outcome = await d.send(
    mail(to),
    beforeData ??
      (async () => {
        claims.push(relay.log.at(-1)!);
      }),
  );
  return claims.length > 0 ? { ...outcome, claims } : outcome;
}

/** Lets the event loop run until `done()` (real I/O; no timer). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}

describe("SMTP delivery", () => {
  it("logs in with the URL's decoded credentials, keeps verify's connection for the first message and reuses it", async () => {
    const d = await delivery();
    await d.verify();
    expect(relay.log).toEqual(["connect 1", "auth 1"]);
    expect(await send(d, "ann@example.test")).toEqual({
      status: "sent",
      response: "250 2.0.0 queued as X1",
      claims: ["DATA 1"],
    });
    expect(await send(d, "bob@example.test")).toMatchObject({ status: "sent" });
    expect(relay.received).toEqual(["ann@example.test whole", "bob@example.test whole"]);
    expect(relay.log).toEqual([
      "connect 1",
      "auth 1",
      "MAIL 1",
      "DATA 1",
      "bytes 1",
      "queued 1",
      "MAIL 1",
      "DATA 1",
      "bytes 1",
      "queued 1",
    ]);
    expect(d.describe).toBe(`smtp://127.0.0.1:${relay.port}`);
    expect(d.concurrency).toBe(1);
  });

  it("a wrong password fails verify with the server's refusal, before any message", async () => {
    const d = await delivery({ password: "wrong" });
    await expect(d.verify()).rejects.toMatchObject({ code: "EAUTH" });
    expect(relay.log.filter((l) => l.startsWith("MAIL"))).toEqual([]);
  });

  it("credentials for a server that offers no AUTH: sent without logging in", async () => {
    const plain = await startRelay({ auth: false });
    try {
      const d = await delivery({ port: plain.port });
      expect(await send(d, "ann@example.test")).toMatchObject({ status: "sent" });
      expect(plain.received).toEqual(["ann@example.test whole"]);
      expect(plain.log).not.toContain("auth 1");
      await d.close();
    } finally {
      await plain.close();
    }
  });

  it("the claim is written after the server's 354 and before any data byte; no byte goes until it is written", async () => {
    const d = await delivery();
    let bytesWhileClaiming: boolean | undefined;
    const outcome = await send(d, "ann@example.test", async () => {
      expect(relay.log).toEqual(["connect 1", "auth 1", "MAIL 1", "DATA 1"]);
      // A slow store: the data waits for it.
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      bytesWhileClaiming = relay.log.includes("bytes 1");
    });
    expect(bytesWhileClaiming).toBe(false);
    expect(outcome).toMatchObject({ status: "sent" });
    expect(relay.received).toEqual(["ann@example.test whole"]);
  });

  it("a claim that cannot be written abandons the transaction without its data: withheld, nothing delivered, that connection closed", async () => {
    const d = await delivery();
    const cause = new Error("state store down");
    expect(
      await send(d, "ann@example.test", async () => {
        throw cause;
      }),
    ).toEqual({ status: "withheld", cause });
    await until(() => relay.log.includes("close 1"));
    expect(relay.received).toEqual([]);
    expect(relay.log).not.toContain("queued 1");
    // The next message opens a fresh connection.
    expect(await send(d, "bob@example.test")).toMatchObject({ status: "sent", claims: ["DATA 2"] });
  });

  it("a recipient refused at RCPT TO: refused with the server's words, no claim, and the next message on a new session", async () => {
    const d = await delivery();
    relay.refuseRcpt.add("gone@example.test");
    const outcome = await send(d, "gone@example.test");
    expect(outcome.status).toBe("refused");
    expect((outcome as { reason: string }).reason).toMatch(/^550 5\.1\.1 mailbox unavailable/);
    expect(outcome).not.toHaveProperty("claims");
    expect(await send(d, "bob@example.test")).toMatchObject({ status: "sent", claims: ["DATA 2"] });
    // The refused session was ended politely, with QUIT.
    await until(() => relay.log.includes("close 1"));
    expect(relay.quits).toEqual([1]);
  });

  it("a message the server takes for some of its recipients only: refused (tried again next run), in the server's words", async () => {
    const d = await delivery();
    relay.refuseRcpt.add("gone@example.test");
    const outcome = await d.send(
      { ...mail("ann@example.test"), to: "ann@example.test, gone@example.test" },
      async () => undefined,
    );
    expect(outcome).toEqual({ status: "refused", reason: "250 2.0.0 queued as X1" });
    expect(relay.received).toEqual(["ann@example.test whole"]);
  });

  it("a message refused after its data: refused (not sent, not ambiguous)", async () => {
    const d = await delivery();
    relay.refuseData.add("spam@example.test");
    const outcome = await send(d, "spam@example.test");
    expect(outcome).toMatchObject({ status: "refused", claims: ["DATA 1"] });
    expect((outcome as { reason: string }).reason).toMatch(/^554 5\.6\.0 content refused/);
  });

  it("a sender the server refuses: unreachable (the run stops), never claimed", async () => {
    const d = await delivery();
    relay.refuseSender = true;
    const outcome = await send(d, "ann@example.test");
    expect(outcome.status).toBe("unreachable");
    expect((outcome as { reason: string }).reason).toMatch(/^sender refused: 550 5\.7\.1 sender not allowed/);
    expect(outcome).not.toHaveProperty("claims");
  });

  it("a connection broken in the middle of DATA: ambiguous, and not tried again", async () => {
    const d = await delivery();
    relay.dropInData.add("dee@example.test");
    const outcome = await send(d, "dee@example.test");
    expect(outcome).toMatchObject({ status: "ambiguous", claims: ["DATA 1"] });
    expect(relay.log.filter((l) => l.startsWith("MAIL"))).toEqual(["MAIL 1"]);
    expect(relay.received).toEqual([]);
  });

  it("a reused connection breaking before DATA is replaced once: sent on a fresh one", async () => {
    const d = await delivery();
    expect(await send(d, "ann@example.test")).toMatchObject({ status: "sent" });
    relay.breakAtMail = 1;
    expect(await send(d, "bob@example.test")).toMatchObject({ status: "sent", claims: ["DATA 2"] });
    expect(relay.log.filter((l) => /^(MAIL|connect)/.test(l))).toEqual(["connect 1", "MAIL 1", "MAIL 1", "connect 2", "MAIL 2"]);
    expect(relay.received).toEqual(["ann@example.test whole", "bob@example.test whole"]);
  });

  it("…and when the fresh one breaks too, the server is unreachable: no third try, nothing claimed", async () => {
    const d = await delivery();
    expect(await send(d, "ann@example.test")).toMatchObject({ status: "sent" });
    relay.breakAtMail = 3;
    const outcome = await send(d, "bob@example.test");
    expect(outcome).toEqual({ status: "unreachable", reason: "Connection closed unexpectedly" });
    expect(relay.log.filter((l) => /^(MAIL|connect)/.test(l))).toEqual(["connect 1", "MAIL 1", "MAIL 1", "connect 2", "MAIL 2"]);
  });

  it("the replacement is tried once even when it is another reused connection: two broken, unreachable", async () => {
    const d = await delivery({ connections: 2 });
    await Promise.all([send(d, "a@example.test"), send(d, "b@example.test")]);
    relay.breakAtMail = 2;
    expect(await send(d, "c@example.test")).toEqual({ status: "unreachable", reason: "Connection closed unexpectedly" });
    expect(relay.log.filter((l) => l.startsWith("connect"))).toEqual(["connect 1", "connect 2"]);
  });

  it("a new connection breaking before DATA is not tried again: unreachable", async () => {
    const d = await delivery();
    relay.breakAtMail = 2;
    expect(await send(d, "ann@example.test")).toEqual({ status: "unreachable", reason: "Connection closed unexpectedly" });
    expect(relay.log.filter((l) => /^(MAIL|connect)/.test(l))).toEqual(["connect 1", "MAIL 1"]);
  });

  it("smtps:// speaks TLS from the first byte: a plain SMTP server cannot be reached that way", async () => {
    const d = await openSmtpDelivery({
      url: new URL(`smtps://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${relay.port}`),
      perMinute: 0,
      connections: 1,
      extraCaFile: undefined,
      timeoutSeconds: 10,
    });
    open.push(d);
    expect(d.describe).toBe(`smtps://127.0.0.1:${relay.port}`);
    const outcome = await send(d, "ann@example.test");
    expect(outcome.status).toBe("unreachable");
    expect(relay.log.filter((l) => l.startsWith("MAIL"))).toEqual([]);
  });

  // A container without IPv6 has no ::1 to listen on.
  const ipv6 = Object.values(networkInterfaces()).some((list) => list?.some((a) => a.address === "::1"));
  it.skipIf(!ipv6)("an IPv6 address in brackets: the server at that address", async () => {
    const six = await startRelay({ auth: true, host: "::1" });
    try {
      const d = await openSmtpDelivery({
        url: new URL(`smtp://${USER}:${encodeURIComponent(PASSWORD)}@[::1]:${six.port}`),
        perMinute: 0,
        connections: 1,
        extraCaFile: undefined,
        timeoutSeconds: 10,
      });
      open.push(d);
      expect(d.describe).toBe(`smtp://[::1]:${six.port}`);
      expect(await send(d, "ann@example.test")).toMatchObject({ status: "sent" });
      expect(six.received).toEqual(["ann@example.test whole"]);
      await d.close();
    } finally {
      await six.close();
    }
  });

  it("a server that is gone: unreachable with the system's reason", async () => {
    const gone = await startRelay({ auth: true });
    await gone.close();
    const d = await delivery({ port: gone.port });
    const outcome = await send(d, "ann@example.test");
    expect(outcome.status).toBe("unreachable");
    expect((outcome as { reason: string }).reason).toMatch(/ECONNREFUSED/);
  });

  it("a connection is closed after 100 messages and the next one opened", async () => {
    const d = await delivery();
    for (let i = 0; i < 101; i++) expect((await send(d, `u${i}@example.test`)).status).toBe("sent");
    const connects = relay.log.filter((l) => l.startsWith("connect"));
    expect(connects).toEqual(["connect 1", "connect 2"]);
    const mails = relay.log.filter((l) => l.startsWith("MAIL"));
    expect(mails.filter((l) => l === "MAIL 1")).toHaveLength(100);
    expect(mails.at(-1)).toBe("MAIL 2");
    await until(() => relay.log.includes("close 1"));
  });

  it("close ends the idle connections", async () => {
    const d = await delivery({ connections: 2 });
    await Promise.all([send(d, "a@example.test"), send(d, "b@example.test")]);
    expect(relay.log.filter((l) => l.startsWith("connect"))).toEqual(["connect 1", "connect 2"]);
    await d.close();
    await until(() => relay.log.includes("close 1") && relay.log.includes("close 2"));
  });
});

describe("pacing", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("60 a minute: message starts one second apart on the clock; after a pause the next goes at once", async () => {
    const d = await delivery({ perMinute: 60 });
    // The connection is opened with real timers (the server delays its greeting by a timer).
    await d.verify();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    await vi.advanceTimersByTimeAsync(60_000);
    const start = performance.now();
    const done: string[] = [];
    const go = (n: string) =>
      send(d, `${n}@example.test`).then((o) => {
        done.push(o.status);
        return o;
      });
    const outcomes = [go("a")];
    await until(() => done.length === 1);
    outcomes.push(go("b"), go("c"));
    await vi.advanceTimersByTimeAsync(999);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => done.length === 2);
    await vi.advanceTimersByTimeAsync(1000);
    await until(() => done.length === 3);
    // Idle for five seconds: the next message is not held back, the one after it is.
    await vi.advanceTimersByTimeAsync(5000);
    outcomes.push(go("d"), go("e"));
    await until(() => done.length === 4);
    await vi.advanceTimersByTimeAsync(1000);
    await until(() => done.length === 5);
    expect((await Promise.all(outcomes)).map((o) => o.status)).toEqual(["sent", "sent", "sent", "sent", "sent"]);
    expect(relay.mailAt.map((t) => t - start)).toEqual([0, 1000, 2000, 7000, 8000]);
  });
});

describe("SmtpPool", () => {
  const options = () => ({
    host: "127.0.0.1",
    port: relay.port,
    secure: false,
    auth: { user: USER, pass: PASSWORD },
    tls: {},
    timeoutMs: 10_000,
    maxMessages: 100,
  });

  it("a connection the server ended while idle is not handed out again: a new one is opened", async () => {
    const pool = await SmtpPool.create(options());
    try {
      const first = await pool.acquire();
      pool.release(first);
      relay.end(1);
      await until(() => first.broken);
      const second = await pool.acquire();
      expect(second).not.toBe(first);
      expect(relay.log.filter((l) => l.startsWith("connect"))).toEqual(["connect 1", "connect 2"]);
      pool.release(second);
      expect(await pool.acquire()).toBe(second);
    } finally {
      pool.close();
    }
  });

  it("a connection released after close, or dropped, is ended and never handed out", async () => {
    const pool = await SmtpPool.create(options());
    const a = await pool.acquire();
    const b = await pool.acquire();
    pool.drop(b);
    expect(b.broken).toBe(true);
    pool.close();
    pool.release(a);
    expect(a.broken).toBe(true);
    await until(() => relay.log.includes("close 1") && relay.log.includes("close 2"));
  });

  it("close ends a connection in use at once; without credentials a connection is made without logging in", async () => {
    const { auth: _auth, ...anonymous } = options();
    const pool = await SmtpPool.create(anonymous);
    const inUse = await pool.acquire();
    expect(relay.log).toEqual(["connect 1"]);
    pool.close();
    expect(inUse.broken).toBe(true);
    await until(() => relay.log.includes("close 1"));
  });

  it("a connection at rest is ended with QUIT (after its last message, or idle at close); one in use is closed without it", async () => {
    const pool = await SmtpPool.create({ ...options(), maxMessages: 1 });
    const spent = await pool.acquire();
    spent.messages = 1;
    pool.release(spent);
    await until(() => relay.log.includes("close 1"));
    const idle = await pool.acquire();
    const inUse = await pool.acquire();
    pool.release(idle);
    pool.close();
    await until(() => relay.log.includes("close 2") && relay.log.includes("close 3"));
    expect(inUse.broken).toBe(true);
    expect(relay.quits).toEqual([1, 2]);
  });

  it("a connection still opening when the pool closes is ended when it is released, not kept", async () => {
    const pool = await SmtpPool.create(options());
    const opening = pool.acquire();
    pool.close();
    const late = await opening;
    pool.release(late);
    await until(() => relay.log.includes("close 1"));
    expect(relay.quits).toEqual([1]);
  });

  it("a server that closes before its greeting: the connection fails", async () => {
    const pool = await SmtpPool.create({ ...options(), port: (await startGarbage("")).port });
    await expect(pool.acquire()).rejects.toMatchObject({ code: "ECONNECTION" });
    pool.close();
  });

  it("a server that does not answer like SMTP: the connection fails and is closed", async () => {
    const pool = await SmtpPool.create({ ...options(), port: (await startGarbage()).port });
    await expect(pool.acquire()).rejects.toMatchObject({ code: expect.stringMatching(/^E/) });
    pool.close();
  });
});

/** A TCP server that greets with nonsense (or nothing), then closes. */
async function startGarbage(greeting = "hello there\r\n"): Promise<{ port: number }> {
  const { createServer } = await import("node:net");
  const server = createServer((socket) => {
    socket.end(greeting);
    server.close();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port };
}
