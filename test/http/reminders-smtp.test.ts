import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProgressRow } from "../../src/domain/progress.js";
import { groupReminders, messageId, messageKeys, type NotifyMessage } from "../../src/domain/reminders/grouping.js";
import { BUILT_IN_TEMPLATES, renderMail } from "../../src/domain/reminders/templates.js";
import { ReminderLedger, type LedgerEntry } from "../../src/engines/reminders/ledger.js";
import { sendAll, type SendItem } from "../../src/engines/reminders/send.js";
import { openSmtpDelivery } from "../../src/engines/reminders/smtp.js";
import { closedPort } from "../helpers/cli.js";
import { memoryStateStore } from "../helpers/memory-state.js";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp.js";

// The reminders engine against a real SMTP server on loopback (test/helpers/smtp.ts: STARTTLS
// with the tests' private CA, AUTH required): what each SMTP outcome does to the ledger
// (docs/reminders.md "Exactly once").

const TENANT = { service: "https://api.example.test", organizationId: "org-1" };
const TODAY = 20_000; // a UTC day number
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await smtp.close();
});

const row = (n: number, userId: string, email: string): ProgressRow => ({
  row: n,
  userId,
  simulationId: "sim-001",
  dueDate: "2024-10-04",
  extra: { email },
});

function items(messages: NotifyMessage[]): SendItem[] {
  return messages.map((message) => ({
    message,
    ambiguous: false,
    claims: messageKeys(message).map((key, i) => ({
      key,
      entry: {
        status: "sending",
        at: "2024-10-04T06:00:00.000Z",
        to: message.to,
        kind: "reminder",
        userId: message.pairs[i]!.row.userId,
        simulationId: "sim-001",
        step: 0,
        messageId: "",
        claimedBy: "test",
      } satisfies LedgerEntry,
    })),
  }));
}

async function deliver(store: ReturnType<typeof memoryStateStore>, list: SendItem[], resendAmbiguous = false) {
  const ledger = await ReminderLedger.open(store, TENANT);
  const delivery = await openSmtpDelivery({
    url: new URL(smtp.url),
    perMinute: 0,
    connections: 2,
    extraCaFile: smtp.caFile,
    timeoutSeconds: 5,
  });
  await delivery.verify();
  try {
    return await sendAll(list, {
      ledger,
      delivery,
      compose: (m) => ({
        from: "Training <training@example.test>",
        to: m.to,
        ...renderMail(m, BUILT_IN_TEMPLATES, TODAY),
        messageId: messageId(TENANT, m, "example.test"),
        kind: m.kind,
      }),
      narrow: (m) => m,
      now: () => "2024-10-04T06:00:01.000Z",
      resendAmbiguous,
    });
  } finally {
    await delivery.close();
  }
}

const statusOf = (store: ReturnType<typeof memoryStateStore>): string[] =>
  [...store.entries.values()].map((v) => (v as LedgerEntry).status).sort();

describe("reminders over SMTP", () => {
  it("logs in only after STARTTLS, sends text and HTML parts with the deterministic Message-ID, and marks each step sent", async () => {
    const store = memoryStateStore();
    const messages = groupReminders([
      { pair: { row: row(2, "u-ann", "ann@example.test"), state: "not-started" }, to: "ann@example.test", step: 0 },
      { pair: { row: row(3, "u-bob", "bob@example.test"), state: "in-progress" }, to: "bob@example.test", step: 0 },
    ]);
    const before = smtp.received.length;
    const run = await deliver(store, items(messages));
    expect(run.results.map((r) => r.status)).toEqual(["sent", "sent"]);
    const got = smtp.received.slice(before);
    expect(got.map((m) => m.envelopeTo[0]).sort()).toEqual(["ann@example.test", "bob@example.test"]);
    expect(smtp.logins.length).toBeGreaterThan(0);
    expect(smtp.logins.every((l) => l.secure)).toBe(true);
    const ann = got.find((m) => m.envelopeTo[0] === "ann@example.test")!;
    expect(ann.parsed.text).toContain("sim-001");
    expect(ann.parsed.html).toContain("<table");
    expect(ann.parsed.messageId).toMatch(/^<[0-9a-f]{32}\.simadmin@example\.test>$/);
    expect(statusOf(store)).toEqual(["sent", "sent"]);
  });

  it("releases the claim of a refused recipient (the next run tries again) and sends the others", async () => {
    const store = memoryStateStore();
    smtp.refuse.add("gone@example.test");
    try {
      const messages = groupReminders([
        {
          pair: { row: row(2, "u-gone", "gone@example.test"), state: "not-started" },
          to: "gone@example.test",
          step: 0,
        },
        { pair: { row: row(3, "u-cy", "cy@example.test"), state: "not-started" }, to: "cy@example.test", step: 0 },
      ]);
      const run = await deliver(store, items(messages));
      expect(run.results.map((r) => [r.message.to, r.status])).toEqual([
        ["gone@example.test", "refused"],
        ["cy@example.test", "sent"],
      ]);
      expect(statusOf(store)).toEqual(["sent"]);
    } finally {
      smtp.refuse.clear();
    }
  });

  it("a connection dropped in the middle of DATA leaves the step sending (ambiguous): not sent again, except with --resend-ambiguous, under the same Message-ID", async () => {
    const store = memoryStateStore();
    smtp.dropDuringDataTo.add("dee@example.test");
    const messages = groupReminders([
      { pair: { row: row(2, "u-dee", "dee@example.test"), state: "overdue" }, to: "dee@example.test", step: 0 },
    ]);
    const before = smtp.received.length;
    const first = await deliver(store, items(messages));
    expect(first.results[0]!.status).toBe("ambiguous");
    expect(statusOf(store)).toEqual(["sending"]);
    expect(smtp.received.length).toBe(before);

    const again = await deliver(store, items(messages));
    expect(again.results[0]!.status).toBe("skipped");
    expect(smtp.received.length).toBe(before);

    const resent = await deliver(
      store,
      items(messages).map((i) => ({ ...i, ambiguous: true })),
      true,
    );
    expect(resent.results[0]!.status).toBe("sent");
    expect(statusOf(store)).toEqual(["sent"]);
    // The copy carries the first attempt's Message-ID, so a mail system that got both keeps one.
    expect(smtp.received.at(-1)!.parsed.messageId).toBe(first.results[0]!.messageId);
  });

  it("a server that cannot be reached fails verify, before anything is claimed", async () => {
    const port = await closedPort();
    const delivery = await openSmtpDelivery({
      url: new URL(`smtp://127.0.0.1:${port}`),
      perMinute: 0,
      connections: 1,
      extraCaFile: undefined,
      timeoutSeconds: 5,
    });
    await expect(delivery.verify()).rejects.toThrow(/ECONNREFUSED/);
    await delivery.close();
  });
});
