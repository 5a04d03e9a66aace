import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { NotifyMessage } from "../../src/domain/reminders/grouping.js";
import type { Delivery, DeliveryOutcome, OutgoingMail } from "../../src/engines/reminders/delivery.js";
import { isLedgerEntry, ReminderLedger, type LedgerEntry } from "../../src/engines/reminders/ledger.js";
import { moveLegacyLedger } from "../../src/engines/reminders/legacy-ledger.js";
import { openOutboxDelivery } from "../../src/engines/reminders/outbox.js";
import { sendAll, type SendItem } from "../../src/engines/reminders/send.js";
import { classifySmtpFailure, describeSmtpUrl } from "../../src/engines/reminders/smtp.js";
import { LocalFileError } from "../../src/errors.js";
import { memoryStateStore } from "../helpers/memory-state.js";

// The reminders engine as a library (docs/reminders.md "Exactly once", "Delivery"): the ledger
// over a state store in memory, a delivery that answers from a script, the outbox in a temp
// directory, the SMTP failure rules as data. Every status, key and line is written out.

const TENANT = { service: "https://api.example.test", organizationId: "org-1" };
const AT = "2026-11-28T06:00:00.000Z";
const SENT_AT = "2026-11-28T06:00:05.000Z";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "simadmin-reminders-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const entry = (to: string, extra: Partial<LedgerEntry> = {}): LedgerEntry => ({
  status: "sending",
  at: AT,
  to,
  kind: "reminder",
  messageId: "",
  claimedBy: "host:1",
  ...extra,
});

/** Message `to` with one ledger key per pair: `${to}#1`, `${to}#2`… */
const item = (to: string, pairs = 1, ambiguous = false): SendItem => ({
  message: { to, kind: "reminder", pairs: Array.from({ length: pairs }, (_, i) => i + 1) } as unknown as NotifyMessage,
  claims: Array.from({ length: pairs }, (_, i) => ({ key: `${to}#${i + 1}`, entry: entry(to) })),
  ambiguous,
});

/**
 * A delivery that answers each address from `outcomes` (sent when not listed) and records what
 * it was given. Like a server: "unreachable" comes before the transaction; anything else after
 * the claim (`beforeData`), whose failure withholds the data (delivery.ts).
 */
function scripted(outcomes: Record<string, DeliveryOutcome | Error>, concurrency = 1) {
  const sent: string[] = [];
  const delivery: Delivery = {
    describe: "scripted",
    concurrency,
    verify: () => Promise.resolve(),
    send: async (mail: OutgoingMail, beforeData: () => Promise<void>) => {
      sent.push(`${mail.to} ${mail.messageId} ${mail.subject}`);
      const outcome = outcomes[mail.to] ?? { status: "sent", response: `250 ok ${mail.to}` };
      if (!(outcome instanceof Error) && outcome.status === "unreachable") return outcome;
      try {
        await beforeData();
      } catch (cause) {
        return { status: "withheld", cause };
      }
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
    close: () => Promise.resolve(),
  };
  return { delivery, sent };
}

const pairsOf = (m: NotifyMessage): number[] => (m as unknown as { pairs: number[] }).pairs;

/**
 * `promise`, or a failure naming `what` if it has not settled after `turns` turns of the event
 * loop. The store and deliveries here answer without timers, so a claim or a run that is still
 * pending by then waits for something that never comes (a claim never written): the test fails
 * at once instead of hanging until its timeout. Counted in turns, not time: load cannot change it.
 */
async function answered<T>(promise: Promise<T>, what: string, turns = 2_000): Promise<T> {
  let outcome: { value: T } | { error: unknown } | undefined;
  promise.then(
    (value) => (outcome = { value }),
    (error: unknown) => (outcome = { error }),
  );
  for (let turn = 0; turn < turns && outcome === undefined; turn++) await new Promise((resolve) => setImmediate(resolve));
  if (outcome === undefined) throw new Error(`${what} never answered: it waits for a write that is never made`);
  if ("error" in outcome) throw outcome.error;
  return outcome.value;
}

async function deliver(
  store: ReturnType<typeof memoryStateStore>,
  items: SendItem[],
  delivery: Delivery,
  options: { resendAmbiguous?: boolean; signal?: AbortSignal } = {},
) {
  const ledger = await ReminderLedger.open(store, TENANT);
  const results: string[] = [];
  const sending = sendAll(items, {
    ledger,
    delivery,
    compose: (m) => ({
      from: "training@example.test",
      to: m.to,
      subject: `pairs ${pairsOf(m).join("+")}`,
      text: "t",
      html: "h",
      messageId: `<${m.to}>`,
      kind: "reminder",
    }),
    narrow: (m, won) => ({ ...m, pairs: pairsOf(m).filter((p) => won.has(`${m.to}#${p}`)) }) as unknown as NotifyMessage,
    now: () => SENT_AT,
    resendAmbiguous: options.resendAmbiguous ?? false,
    ...(options.signal ? { signal: options.signal } : {}),
    onResult: (r) => results.push(`${r.message.to} ${r.status}`),
  });
  const run = await answered(sending, "the run");
  return { run, results, ledger };
}

/** The ledger as stored: key → status (and messageId when set). */
async function stored(store: ReturnType<typeof memoryStateStore>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [key, value] of await store.list(TENANT, "reminders")) {
    const e = value as LedgerEntry;
    out[key] = `${e.status}${e.messageId ? ` ${e.messageId}` : ""}${e.status === "sent" ? ` ${e.at}` : ""}`;
  }
  return out;
}

describe("sendAll", () => {
  it("each server outcome does what the ledger needs: sent marked, refused released, ambiguous left sending", async () => {
    const store = memoryStateStore();
    const { delivery, sent } = scripted({
      "ref@x.test": { status: "refused", reason: "550 no such user" },
      "amb@x.test": { status: "ambiguous", reason: "connection dropped in DATA" },
    });
    const { run, results } = await deliver(store, [item("ok@x.test", 2), item("ref@x.test"), item("amb@x.test")], delivery);
    expect(sent).toEqual([
      "ok@x.test <ok@x.test> pairs 1+2",
      "ref@x.test <ref@x.test> pairs 1",
      "amb@x.test <amb@x.test> pairs 1",
    ]);
    expect(run.unreachable).toBeUndefined();
    expect(run.results.map((r) => [r.message.to, r.status, r.messageId, r.detail])).toEqual([
      ["ok@x.test", "sent", "<ok@x.test>", "250 ok ok@x.test"],
      ["ref@x.test", "refused", "<ref@x.test>", "550 no such user"],
      ["amb@x.test", "ambiguous", "<amb@x.test>", "connection dropped in DATA"],
    ]);
    expect(results).toEqual(["ok@x.test sent", "ref@x.test refused", "amb@x.test ambiguous"]);
    expect(await stored(store)).toEqual({
      "ok@x.test#1": `sent <ok@x.test> ${SENT_AT}`,
      "ok@x.test#2": `sent <ok@x.test> ${SENT_AT}`,
      "amb@x.test#1": "sending <amb@x.test>",
    });
  });

  it("a server that cannot be reached: that message released, the rest not tried and handed back", async () => {
    const store = memoryStateStore();
    const { delivery, sent } = scripted({ "b@x.test": { status: "unreachable", reason: "ECONNREFUSED" } });
    const { run } = await deliver(store, [item("a@x.test"), item("b@x.test"), item("c@x.test"), item("d@x.test")], delivery);
    expect(sent).toEqual(["a@x.test <a@x.test> pairs 1", "b@x.test <b@x.test> pairs 1"]);
    expect(run.unreachable).toBe("ECONNREFUSED");
    expect(run.results.map((r) => [r.message.to, r.status, r.messageId, r.detail])).toEqual([
      ["a@x.test", "sent", "<a@x.test>", "250 ok a@x.test"],
      ["b@x.test", "not-sent", "<b@x.test>", "ECONNREFUSED"],
      ["c@x.test", "not-sent", "", "not tried: the server could not be reached"],
      ["d@x.test", "not-sent", "", "not tried: the server could not be reached"],
    ]);
    expect(await stored(store)).toEqual({ "a@x.test#1": `sent <a@x.test> ${SENT_AT}` });
  });

  it("a run stopped (Ctrl-C) sends nothing more and leaves nothing claimed", async () => {
    const store = memoryStateStore();
    const controller = new AbortController();
    const { delivery } = scripted({});
    const send = delivery.send.bind(delivery);
    delivery.send = (mail, beforeData) => {
      controller.abort();
      return send(mail, beforeData);
    };
    const { run } = await deliver(store, [item("a@x.test"), item("b@x.test"), item("c@x.test")], delivery, {
      signal: controller.signal,
    });
    expect(run.results.map((r) => [r.message.to, r.status, r.detail])).toEqual([
      ["a@x.test", "sent", "250 ok a@x.test"],
      ["b@x.test", "not-sent", "not tried: the run was stopped"],
      ["c@x.test", "not-sent", "not tried: the run was stopped"],
    ]);
    expect(run).not.toHaveProperty("unreachable");
    expect(await stored(store)).toEqual({ "a@x.test#1": `sent <a@x.test> ${SENT_AT}` });
  });

  it("keys another run recorded are not sent: a message wholly theirs is skipped, one partly theirs narrowed", async () => {
    const store = memoryStateStore();
    await store.put(TENANT, "reminders", {
      "all@x.test#1": entry("all@x.test", { status: "sent", messageId: "<other>" }),
      "part@x.test#2": entry("part@x.test", { messageId: "<other>" }),
    });
    const { delivery, sent } = scripted({});
    const { run } = await deliver(store, [item("all@x.test"), item("part@x.test", 3)], delivery);
    expect(sent).toEqual(["part@x.test <part@x.test> pairs 1+3"]);
    expect(run.results.map((r) => [r.message.to, r.status, r.messageId, r.detail])).toEqual([
      ["all@x.test", "skipped", "", "already recorded by another run"],
      ["part@x.test", "sent", "<part@x.test>", "250 ok part@x.test"],
    ]);
    expect(pairsOf(run.results[1]!.message)).toEqual([1, 3]);
    expect(await stored(store)).toEqual({
      "all@x.test#1": `sent <other> ${AT}`,
      "part@x.test#1": `sent <part@x.test> ${SENT_AT}`,
      "part@x.test#2": "sending <other>",
      "part@x.test#3": `sent <part@x.test> ${SENT_AT}`,
    });
  });

  it("an ambiguous step is sent again only with --resend-ambiguous, and only the one marked so", async () => {
    const store = memoryStateStore();
    await store.put(TENANT, "reminders", {
      "amb@x.test#1": entry("amb@x.test", { messageId: "<amb@x.test>" }),
      "held@x.test#1": entry("held@x.test", { messageId: "<held@x.test>" }),
    });
    const without = await deliver(store, [item("amb@x.test", 1, true)], scripted({}).delivery);
    expect(without.run.results.map((r) => r.status)).toEqual(["skipped"]);
    const { delivery, sent } = scripted({});
    const withFlag = await deliver(store, [item("amb@x.test", 1, true), item("held@x.test")], delivery, {
      resendAmbiguous: true,
    });
    expect(withFlag.run.results.map((r) => `${r.message.to} ${r.status}`)).toEqual(["amb@x.test sent", "held@x.test skipped"]);
    expect(sent).toEqual(["amb@x.test <amb@x.test> pairs 1"]);
    expect(await stored(store)).toEqual({
      "amb@x.test#1": `sent <amb@x.test> ${SENT_AT}`,
      "held@x.test#1": "sending <held@x.test>",
    });
  });

  it("a failure of ours before a message left (the outbox cannot be written): its claim released, the run throws after writing the ledger", async () => {
    const store = memoryStateStore();
    const failure = new LocalFileError("cannot write /outbox/x.eml", { path: "/outbox/x.eml" });
    const { delivery } = scripted({ "b@x.test": failure });
    await expect(deliver(store, [item("a@x.test"), item("b@x.test"), item("c@x.test")], delivery)).rejects.toBe(failure);
    expect(await stored(store)).toEqual({ "a@x.test#1": `sent <a@x.test> ${SENT_AT}` });
  });

  it("a key another run claims after this run read the ledger: the message goes again with this run's pairs only", async () => {
    const store = memoryStateStore();
    const ledger = await ReminderLedger.open(store, TENANT);
    // Recorded by another run after this one read the ledger: the claim inside the transaction loses it.
    await store.put(TENANT, "reminders", {
      "race@x.test#2": entry("race@x.test", { messageId: "<other>" }),
      "lost@x.test#1": entry("lost@x.test", { messageId: "<other>" }),
    });
    const { delivery, sent } = scripted({});
    const run = await answered(
      sendAll([item("race@x.test", 3), item("lost@x.test")], {
        ledger,
        delivery,
        compose: (m) => ({
          from: "f",
          to: m.to,
          subject: `pairs ${pairsOf(m).join("+")}`,
          text: "",
          html: "",
          messageId: `<${m.to}>`,
          kind: "reminder",
        }),
        narrow: (m, won) => ({ ...m, pairs: pairsOf(m).filter((p) => won.has(`${m.to}#${p}`)) }) as unknown as NotifyMessage,
        now: () => SENT_AT,
        resendAmbiguous: false,
      }),
      "the run",
    );
    expect(sent).toEqual([
      "race@x.test <race@x.test> pairs 1+2+3",
      "race@x.test <race@x.test> pairs 1+3",
      "lost@x.test <lost@x.test> pairs 1",
    ]);
    expect(run.results.map((r) => [r.message.to, r.status, r.messageId, r.detail])).toEqual([
      ["race@x.test", "sent", "<race@x.test>", "250 ok race@x.test"],
      ["lost@x.test", "skipped", "", "already recorded by another run"],
    ]);
    expect(pairsOf(run.results[0]!.message)).toEqual([1, 3]);
    expect(await stored(store)).toEqual({
      "race@x.test#1": `sent <race@x.test> ${SENT_AT}`,
      "race@x.test#2": "sending <other>",
      "race@x.test#3": `sent <race@x.test> ${SENT_AT}`,
      "lost@x.test#1": "sending <other>",
    });
  });

  it("several messages in flight at once, up to the delivery's connections", async () => {
    const store = memoryStateStore();
    let inFlight = 0;
    let most = 0;
    const delivery: Delivery = {
      ...scripted({}, 3).delivery,
      send: async (mail, beforeData) => {
        most = Math.max(most, ++inFlight);
        await beforeData();
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        return { status: "sent", response: `250 ${mail.to}` };
      },
    };
    const items = Array.from({ length: 20 }, (_, i) => item(`u${i}@x.test`));
    const { run } = await deliver(store, items, delivery);
    expect(run.results.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => "sent"));
    expect(most).toBe(3);
    expect(Object.keys(await stored(store))).toHaveLength(20);
  });

  it("a delivery that fails before the claim: the run throws its error, and releases nothing another run holds", async () => {
    const store = memoryStateStore();
    const ledger = await ReminderLedger.open(store, TENANT);
    // Claimed by another run after this one read the ledger.
    await store.put(TENANT, "reminders", { "b@x.test#1": entry("b@x.test", { messageId: "<other>" }) });
    const broken = new Error("cannot compose");
    const delivery: Delivery = {
      ...scripted({}).delivery,
      send: (mail) =>
        mail.to === "a@x.test" ? Promise.reject(broken) : Promise.resolve({ status: "unreachable", reason: "ECONNREFUSED" }),
    };
    const deps = {
      ledger,
      delivery,
      compose: (m: NotifyMessage) => ({
        from: "f",
        to: m.to,
        subject: "",
        text: "",
        html: "",
        messageId: `<${m.to}>`,
        kind: "reminder",
      }),
      narrow: (m: NotifyMessage) => m,
      now: () => SENT_AT,
      resendAmbiguous: false,
    };
    await expect(answered(sendAll([item("a@x.test")], deps), "the run")).rejects.toBe(broken);
    const down = await answered(sendAll([item("b@x.test")], deps), "the run");
    expect(down.results.map((r) => r.status)).toEqual(["not-sent"]);
    expect(await stored(store)).toEqual({ "b@x.test#1": "sending <other>" });
  });

  it("a claim the store cannot write: the run throws the store's error; a server lost after the claim releases it", async () => {
    const store = memoryStateStore();
    const lost = new Error("connection to the state store lost");
    const claimMany = store.claimMany.bind(store);
    store.claimMany = () => Promise.reject(lost);
    await expect(deliver(store, [item("a@x.test")], scripted({}).delivery)).rejects.toBe(lost);
    store.claimMany = claimMany;
    const delivery: Delivery = {
      ...scripted({}).delivery,
      send: async (_mail, beforeData) => {
        await beforeData();
        return { status: "unreachable", reason: "421 shutting down" };
      },
    };
    const { run } = await deliver(store, [item("b@x.test")], delivery);
    expect(run.results.map((r) => [r.status, r.detail])).toEqual([["not-sent", "421 shutting down"]]);
    expect(await stored(store)).toEqual({});
  });

  it("no messages: nothing claimed, nothing sent", async () => {
    const store = memoryStateStore();
    const { delivery, sent } = scripted({});
    const { run } = await deliver(store, [], delivery);
    expect(run).toEqual({ results: [] });
    expect(sent).toEqual([]);
  });
});

describe("the ledger", () => {
  it("reads only entries it can use; claims, marks and releases reach the store by flush", async () => {
    const store = memoryStateStore();
    await store.put(TENANT, "reminders", {
      "k#sent": entry("a@x.test", { status: "sent" }),
      "k#junk": { status: "maybe", to: "a@x.test", messageId: "m" },
    });
    const ledger = await ReminderLedger.open(store, TENANT);
    expect([...ledger.entries.keys()]).toEqual(["k#sent"]);
    const won = await ledger.claim(
      [
        { key: "k#sent", entry: entry("a@x.test") },
        { key: "k#new", entry: entry("b@x.test") },
        { key: "k#gone", entry: entry("c@x.test") },
      ],
      () => true,
    );
    expect([...won].sort()).toEqual(["k#gone", "k#new"]);
    // A key sent is never claimable, even to take over.
    expect(ledger.claimable("k#sent", () => true)).toBe(false);
    expect(ledger.claimable("k#new", () => true)).toBe(true);
    expect(ledger.claimable("k#new", () => false)).toBe(false);
    expect(ledger.claimable("k#other", () => false)).toBe(true);
    ledger.markSent([{ key: "k#new", entry: entry("b@x.test", { messageId: "<b>" }) }], SENT_AT);
    ledger.release(["k#gone"]);
    await ledger.flush();
    expect(await stored(store)).toEqual({ "k#sent": `sent ${AT}`, "k#junk": "maybe m", "k#new": `sent <b> ${SENT_AT}` });
    expect(ledger.entries.get("k#new")?.status).toBe("sent");
    expect(ledger.entries.has("k#gone")).toBe(false);
  });

  it("claims made while a write is under way go to the store together next, each answered with its own keys", async () => {
    const store = memoryStateStore();
    await store.put(TENANT, "reminders", { "c#1": entry("c@x.test", { status: "sent" }) });
    const ledger = await ReminderLedger.open(store, TENANT);
    // Recorded by another run after this one read the ledger.
    await store.put(TENANT, "reminders", { "b#2": entry("b@x.test", { messageId: "<other>" }) });
    const writes: string[][] = [];
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    const claimMany = store.claimMany.bind(store);
    store.claimMany = async (tenant, kind, claims) => {
      writes.push(Object.keys(claims));
      if (writes.length === 1) await gate;
      return claimMany(tenant, kind, claims);
    };
    const claim = (...keys: string[]) =>
      ledger.claim(
        keys.map((key) => ({ key, entry: entry(`${key.slice(0, 1)}@x.test`) })),
        () => false,
      );
    const turns = async () => {
      for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    };
    const first = claim("a#1");
    await turns();
    expect(writes).toEqual([["a#1"]]);
    const second = claim("b#1", "b#2");
    const third = claim("c#1", "c#2");
    await turns();
    expect(writes).toEqual([["a#1"]]);
    openGate();
    expect([...(await answered(first, "the first claim"))]).toEqual(["a#1"]);
    expect([...(await answered(second, "a claim made during a write"))]).toEqual(["b#1"]);
    expect([...(await answered(third, "a claim made during a write"))]).toEqual(["c#2"]);
    expect(writes).toEqual([["a#1"], ["b#1", "b#2", "c#2"]]);
    expect(ledger.entries.get("b#2")?.messageId).toBe("<other>");
    // Once nothing is under way, a claim is written on its own.
    expect([...(await answered(claim("d#1"), "a claim after the others"))]).toEqual(["d#1"]);
    expect(writes).toEqual([["a#1"], ["b#1", "b#2", "c#2"], ["d#1"]]);
  });

  it("a claim whose write fails is answered with the store's error, as is every claim written with it", async () => {
    const store = memoryStateStore();
    const ledger = await ReminderLedger.open(store, TENANT);
    const lost = new Error("connection to the state store lost");
    store.claimMany = () => Promise.reject(lost);
    const first = ledger.claim([{ key: "a#1", entry: entry("a@x.test") }], () => false);
    const second = ledger.claim([{ key: "b#1", entry: entry("b@x.test") }], () => false);
    const answers = await Promise.allSettled([answered(first, "the first claim"), answered(second, "a claim written with it")]);
    expect(answers).toEqual([
      { status: "rejected", reason: lost },
      { status: "rejected", reason: lost },
    ]);
    await expect(ledger.flush()).rejects.toBe(lost);
  });

  it("a key left sending is taken over with a put (not an insert) only when takeOver says so", async () => {
    const store = memoryStateStore();
    await store.put(TENANT, "reminders", {
      "amb#1": entry("a@x.test", { messageId: "<old>" }),
      "amb#2": entry("b@x.test", { messageId: "<old>" }),
    });
    const ledger = await ReminderLedger.open(store, TENANT);
    const calls: string[] = [];
    const { put, claimMany } = store;
    store.put = (...args) => (calls.push(`put ${Object.keys(args[2]).join(" ")}`), put(...args));
    store.claimMany = (...args) => (calls.push(`claimMany ${Object.keys(args[2]).join(" ")}`), claimMany(...args));
    const won = await answered(
      ledger.claim(
        [
          { key: "amb#1", entry: entry("a@x.test", { messageId: "<new>" }) },
          { key: "amb#2", entry: entry("b@x.test", { messageId: "<new>" }) },
        ],
        (key) => key === "amb#1",
      ),
      "the claim",
    );
    expect([...won]).toEqual(["amb#1"]);
    // Only the put: no insert of nothing; and a flush with nothing waiting writes nothing.
    await ledger.flush();
    expect(calls).toEqual(["put amb#1"]);
    // A key another run filled with something that is no entry: not won, and not taken in.
    await put(TENANT, "reminders", { "odd#1": { status: "maybe" } });
    expect([
      ...(await answered(
        ledger.claim([{ key: "odd#1", entry: entry("o@x.test") }], () => true),
        "a claim",
      )),
    ]).toEqual([]);
    expect(calls).toEqual(["put amb#1", "claimMany odd#1"]);
    expect(ledger.entries.has("odd#1")).toBe(false);
    expect(await stored(store)).toEqual({ "amb#1": "sending <new>", "amb#2": "sending <old>", "odd#1": "maybe" });
    expect(ledger.entries.get("amb#1")?.messageId).toBe("<new>");
  });

  it("marks and releases reach the store 250 ms later without a flush, those made meanwhile in the same write", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    try {
      const store = memoryStateStore();
      await store.put(TENANT, "reminders", { "c#1": entry("c@x.test") });
      const ledger = await ReminderLedger.open(store, TENANT);
      const puts: string[][] = [];
      const put = store.put.bind(store);
      store.put = (tenant, kind, changes) => {
        puts.push(Object.keys(changes));
        return put(tenant, kind, changes);
      };
      const settle = async () => {
        for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
      };
      ledger.markSent([{ key: "a#1", entry: entry("a@x.test") }], SENT_AT);
      vi.advanceTimersByTime(100);
      ledger.markSent([{ key: "b#1", entry: entry("b@x.test") }], SENT_AT);
      ledger.release(["c#1"]);
      vi.advanceTimersByTime(149);
      await settle();
      expect(puts).toEqual([]);
      vi.advanceTimersByTime(1);
      await settle();
      expect(puts).toEqual([["a#1", "b#1", "c#1"]]);
      expect(await stored(store)).toEqual({ "a#1": `sent ${SENT_AT}`, "b#1": `sent ${SENT_AT}` });
      // The next mark starts a delay of its own.
      ledger.release(["a#1"]);
      vi.advanceTimersByTime(249);
      await settle();
      expect(puts).toHaveLength(1);
      vi.advanceTimersByTime(1);
      await settle();
      expect(puts).toEqual([["a#1", "b#1", "c#1"], ["a#1"]]);
      expect(await stored(store)).toEqual({ "b#1": `sent ${SENT_AT}` });
    } finally {
      vi.useRealTimers();
    }
  });

  it("a failure that is not an Error is thrown by the next claim as one with its text", async () => {
    const store = memoryStateStore();
    const ledger = await ReminderLedger.open(store, TENANT);
    store.put = () => Promise.reject("EIO"); // eslint-disable-line @typescript-eslint/prefer-promise-reject-errors
    ledger.release(["k#1"]);
    await ledger.flush().catch(() => undefined);
    const error = await (async () => ledger.claim([{ key: "k#2", entry: entry("a@x.test") }], () => false))().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe("EIO");
  });

  it("a write that failed is thrown by flush and by the next claim", async () => {
    const store = memoryStateStore();
    const ledger = await ReminderLedger.open(store, TENANT);
    const full = new Error("disk full");
    store.put = () => Promise.reject(full);
    ledger.release(["k#1"]);
    await expect(ledger.flush()).rejects.toBe(full);
    await expect((async () => ledger.claim([{ key: "k#2", entry: entry("a@x.test") }], () => false))()).rejects.toBe(full);
  });

  it("reload reads what another run wrote meanwhile", async () => {
    const store = memoryStateStore();
    const ledger = await ReminderLedger.open(store, TENANT);
    await store.put(TENANT, "reminders", { "k#1": entry("a@x.test", { status: "sent" }) });
    expect(ledger.entries.size).toBe(0);
    await ledger.reload();
    expect([...ledger.entries.keys()]).toEqual(["k#1"]);
  });

  it("isLedgerEntry: a status of sending or sent, an address and a Message-ID", () => {
    expect(isLedgerEntry(entry("a@x.test"))).toBe(true);
    expect(isLedgerEntry(entry("a@x.test", { status: "sent" }))).toBe(true);
    expect(isLedgerEntry({ ...entry("a@x.test"), status: "queued" })).toBe(false);
    expect(isLedgerEntry({ ...entry("a@x.test"), to: 7 })).toBe(false);
    expect(isLedgerEntry({ ...entry("a@x.test"), messageId: undefined })).toBe(false);
    expect(isLedgerEntry(null)).toBe(false);
    expect(isLedgerEntry(undefined)).toBe(false);
    expect(isLedgerEntry("sent")).toBe(false);
  });
});

describe("the outbox", () => {
  const mail: OutgoingMail = {
    from: "Training <training@example.test>",
    to: "ann@example.test",
    subject: "Your simulation is due",
    text: "Hello Ann",
    html: "<p>Hello Ann</p>",
    messageId: "<0123abcd.simadmin@example.test>",
    kind: "digest",
  };

  it("writes each message to one .eml file named by its kind and Message-ID, with the headers a relay would get", async () => {
    const outbox = join(dir, "outbox");
    const delivery = await openOutboxDelivery(outbox);
    expect(delivery.describe).toBe(outbox);
    expect(delivery.concurrency).toBe(4);
    await delivery.verify();
    let claimed = 0;
    const outcome = await delivery.send(mail, () => {
      claimed++;
      return Promise.resolve();
    });
    expect(claimed).toBe(1);
    expect(outcome).toEqual({ status: "sent", response: join(outbox, "digest-0123abcd.simadmin.eml") });
    expect(await readdir(outbox)).toEqual(["digest-0123abcd.simadmin.eml"]);
    const text = await readFile(join(outbox, "digest-0123abcd.simadmin.eml"), "utf8");
    expect(text).toContain("Message-ID: <0123abcd.simadmin@example.test>");
    expect(text).toContain("X-Simadmin-Kind: digest");
    expect(text).toContain("Auto-Submitted: auto-generated");
    expect(text).toContain("To: ann@example.test");
    expect(text).toContain("Subject: Your simulation is due");
    expect(text).toContain("Hello Ann");
    await delivery.close();
  });

  it("an outbox is made with its parents, private (0700, files 0600), and opened again as it is", async () => {
    const outbox = join(dir, "nested", "deeper", "outbox");
    const first = await openOutboxDelivery(outbox);
    expect((await stat(outbox)).mode & 0o777).toBe(0o700);
    await first.send(mail, () => Promise.resolve());
    expect((await stat(join(outbox, "digest-0123abcd.simadmin.eml"))).mode & 0o777).toBe(0o600);
    const again = await openOutboxDelivery(outbox);
    expect(again.describe).toBe(outbox);
  });

  it("a claim that fails withholds the message: no file, the claim's failure handed back", async () => {
    const outbox = join(dir, "outbox-withheld");
    const delivery = await openOutboxDelivery(outbox);
    const held = new Error("held elsewhere");
    expect(await delivery.send(mail, () => Promise.reject(held))).toEqual({ status: "withheld", cause: held });
    expect(await readdir(outbox)).toEqual([]);
  });

  it("a message it cannot write is a LocalFileError naming the file, and no temp file is left", async () => {
    const outbox = join(dir, "outbox-blocked");
    const delivery = await openOutboxDelivery(outbox);
    // A directory where the file would go: the rename fails.
    await mkdir(join(outbox, "digest-0123abcd.simadmin.eml"));
    const error = await delivery
      .send(mail, () => Promise.resolve())
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(LocalFileError);
    expect((error as LocalFileError).path).toBe(join(outbox, "digest-0123abcd.simadmin.eml"));
    expect((error as LocalFileError).message).toMatch(/^cannot write .*digest-0123abcd\.simadmin\.eml: /);
    expect((await readdir(outbox)).sort()).toEqual(["digest-0123abcd.simadmin.eml"]);
  });

  it("an outbox that cannot be made is a LocalFileError naming it", async () => {
    const file = join(dir, "a-file");
    await writeFile(file, "");
    const error = await openOutboxDelivery(join(file, "outbox")).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LocalFileError);
    expect((error as LocalFileError).message).toMatch(new RegExp(`^cannot create the outbox ${file}/outbox: `));
  });
});

describe("SMTP failures", () => {
  it.each([
    [
      { code: "EENVELOPE", command: "RCPT TO", response: "550 no such user" },
      { status: "refused", reason: "550 no such user" },
    ],
    [
      { code: "EMESSAGE", responseCode: 552, response: "552 too big" },
      { status: "refused", reason: "552 too big" },
    ],
    [
      { code: "EMESSAGE", message: "broke" },
      { status: "ambiguous", reason: "broke" },
    ],
    [
      { code: "EENVELOPE", command: "MAIL FROM", response: "553 sender not allowed" },
      { status: "unreachable", reason: "sender refused: 553 sender not allowed" },
    ],
    [
      { code: "EAUTH", response: "535 bad credentials" },
      { status: "unreachable", reason: "535 bad credentials" },
    ],
    [
      { code: "ETLS", message: "no STARTTLS" },
      { status: "unreachable", reason: "no STARTTLS" },
    ],
    [
      { code: "EDNS", message: "no such host" },
      { status: "unreachable", reason: "no such host" },
    ],
    [
      { code: "ESOCKET", originalCode: "EHOSTUNREACH", message: "host unreachable" },
      { status: "unreachable", reason: "host unreachable" },
    ],
    [
      { code: "ESOCKET", originalCode: "ECONNRESET", message: "reset" },
      { status: "ambiguous", reason: "reset" },
    ],
    [
      { code: "ECONNECTION", command: "CONN", message: "connect ECONNREFUSED 127.0.0.1:25" },
      { status: "unreachable", reason: "connect ECONNREFUSED 127.0.0.1:25" },
    ],
    [
      { code: "ECONNECTION", command: "CONN", message: "closed" },
      { status: "ambiguous", reason: "closed" },
    ],
    [
      { code: "ECONNECTION", command: "DATA", message: "ECONNREFUSED later" },
      { status: "ambiguous", reason: "ECONNREFUSED later" },
    ],
    [
      { code: "ETIMEDOUT", message: "timeout in DATA" },
      { status: "ambiguous", reason: "timeout in DATA" },
    ],
  ])("%j → %j", (fields, outcome) => {
    const error = Object.assign(new Error((fields as { message?: string }).message ?? "message"), fields);
    expect(classifySmtpFailure(error)).toEqual(outcome);
  });

  it("names a server by scheme, host and port, never its credentials", () => {
    expect(describeSmtpUrl(new URL("smtp://me:secret@relay.example.test"))).toBe("smtp://relay.example.test:587");
    expect(describeSmtpUrl(new URL("smtps://relay.example.test"))).toBe("smtps://relay.example.test:465");
    expect(describeSmtpUrl(new URL("smtp://relay.example.test:2525"))).toBe("smtp://relay.example.test:2525");
  });
});

describe("the ledger of the earlier version", () => {
  // docs/reminders.md "Where the ledger lives": one file per entry in the settings directory.
  const legacy = async (files: Record<string, string>): Promise<{ state: string; dir: string }> => {
    const state = await mkdtemp(join(dir, "state-"));
    const { createHash } = await import("node:crypto");
    const id = createHash("sha256").update(`${TENANT.service}\n${TENANT.organizationId}`).digest("hex").slice(0, 16);
    const ledgerDir = join(state, "reminders", id);
    await mkdir(ledgerDir, { recursive: true });
    await writeFile(join(state, "reminders", `${id}.lock`), "");
    for (const [name, text] of Object.entries(files)) await writeFile(join(ledgerDir, name), text);
    return { state, dir: ledgerDir };
  };

  it("moves its entries into the store, keeps what the store has (a sent entry too), upgrades sending to sent, then removes the files", async () => {
    const store = memoryStateStore();
    await store.put(TENANT, "reminders", {
      "k/2": entry("b@x.test", { messageId: "<store-b>" }),
      "k/3": entry("c@x.test", { status: "sent", messageId: "<store-c>" }),
      "k/4": entry("d@x.test", { messageId: "<store-d>" }),
      "k/5": entry("f@x.test", { status: "sent", messageId: "<store-f>" }),
    });
    const { state, dir: ledgerDir } = await legacy({
      "k%2F1.json": JSON.stringify(entry("a@x.test", { status: "sent", messageId: "<file-a>" })),
      "k%2F2.json": JSON.stringify(entry("b@x.test", { status: "sent", messageId: "<file-b>" })),
      "k%2F3.json": JSON.stringify(entry("c@x.test", { messageId: "<file-c>" })),
      "k%2F4.json": JSON.stringify(entry("d@x.test", { messageId: "<file-d>" })),
      "k%2F5.json": JSON.stringify(entry("f@x.test", { status: "sent", messageId: "<file-f>" })),
      "half.json": '{"status":"se',
      "odd.json": '{"status":"maybe"}',
      "other.txt": JSON.stringify(entry("x@x.test", { status: "sent" })),
      "step%2F12.json": JSON.stringify(entry("e@x.test", { status: "sent", messageId: "<file-e>" })),
    });
    const lines: string[] = [];
    await moveLegacyLedger(store, TENANT, state, (line) => lines.push(line));
    expect(await stored(store)).toEqual({
      "k/1": `sent <file-a> ${AT}`,
      "k/2": `sent <file-b> ${AT}`,
      "k/3": `sent <store-c> ${AT}`,
      "k/4": "sending <store-d>",
      "k/5": `sent <store-f> ${AT}`,
      "step/12": `sent <file-e> ${AT}`,
    });
    expect(lines).toEqual([`moved the reminder ledger (6 entries) from ${ledgerDir} into the state store memory`]);
    expect(await readdir(state)).toEqual([]);
  });

  it("one entry is one entry; a missing ledger is nothing to move; an unreadable one is left with a line", async () => {
    const store = memoryStateStore();
    const writes: string[] = [];
    const { put, claimMany } = store;
    store.put = (...args) => (writes.push(`put ${Object.keys(args[2]).join(" ")}`), put(...args));
    store.claimMany = (...args) => (writes.push(`claimMany ${Object.keys(args[2]).join(" ")}`), claimMany(...args));
    const { state, dir: ledgerDir } = await legacy({ "k.json": JSON.stringify(entry("a@x.test")) });
    // The old version's lock file may be gone already.
    await rm(join(ledgerDir, "..", `${ledgerDir.split("/").pop()!}.lock`));
    const lines: string[] = [];
    await moveLegacyLedger(store, TENANT, state, (line) => lines.push(line));
    expect(lines).toEqual([`moved the reminder ledger (1 entry) from ${ledgerDir} into the state store memory`]);
    expect(await readdir(state)).toEqual([]);
    // Nothing to upgrade: the one insert, no put.
    expect(writes).toEqual(["claimMany k"]);
    const empty = await legacy({ "half.json": '{"status":"se' });
    await moveLegacyLedger(store, TENANT, empty.state, (line) => lines.push(line));
    expect(writes).toEqual(["claimMany k"]);
    lines.length = 0;
    await moveLegacyLedger(store, TENANT, state, (line) => lines.push(line));
    expect(lines).toEqual([]);
    // A file where the directory should be: readdir fails with ENOTDIR.
    const blocked = await legacy({});
    await rm(blocked.dir, { recursive: true });
    await writeFile(blocked.dir, "");
    await moveLegacyLedger(store, TENANT, blocked.state, (line) => lines.push(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^${blocked.dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} cannot be read \\(ENOTDIR: .*\\): the reminder ledger there is left where it is$`,
      ),
    );
  });
});
