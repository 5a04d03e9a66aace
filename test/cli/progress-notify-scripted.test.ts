import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient, Endpoint } from "../../src/api/client.js";
import { createFakeClock } from "../../src/clock.js";
import { NotFoundError } from "../../src/errors.js";
import { memoryStateStore } from "../helpers/memory-state.js";
import { closedPort, runInProcess, tempDir } from "../helpers/in-process.js";
import { SMTP_PASSWORD, SMTP_USER, startTestSmtp, type TestSmtp } from "../helpers/smtp.js";

// progress notify (docs/cli-contract.md "Reminders", docs/reminders.md) in this process with no
// sandbox: a client that answers completion-data from the test's script and records what was
// asked, the ledger and the cache in a state store in memory (ServiceFakes, src/services.ts),
// and the messages written to an --outbox or sent to a real SMTP server on 127.0.0.1. What is
// checked is what the user, the recipients and the next run see: the records, the lines on
// stderr, the exit code, the pairs asked, the mails, the ledger kept. Runs of milliseconds, so
// that mutation testing (docs/mutation-testing.md) can run them for every mutant.

const ORG = "org-1";
const SERVICE = "https://sim.example.com";
const TODAY = "2026-11-27";
const NOW = Date.parse(`${TODAY}T06:00:00Z`);
const FROM = "Training <training@example.test>";
const COMPLETION = "/access-api/simulation/completion-data";
const TENANT = { service: SERVICE, organizationId: ORG };

let dir: { path: string; remove(): Promise<void> };
let smtp: TestSmtp;
beforeAll(async () => {
  dir = await tempDir();
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await smtp.close();
  await dir.remove();
});

const done = [{ executionId: "e1", completedAt: "2026-11-20T10:00:00Z", completionTime: 600, score: 80, status: "COMPLETED" }];
const started = [{ executionId: "e2", completedAt: null, score: null, status: "IN_PROGRESS" }];

/** Completion answers by "user/sim" (not started when not listed), or an error. */
type Answers = Record<string, unknown[] | Error>;

function scriptedClient(answers: Answers) {
  const asked: string[] = [];
  const other: string[] = [];
  const api = {
    apiVersion: 2,
    postJson: async (endpoint: Endpoint, body: { userId: string; simulationId?: string }) => {
      if (endpoint.path !== COMPLETION) {
        other.push(endpoint.path);
        return {};
      }
      const key = `${body.userId}/${body.simulationId}`;
      asked.push(key);
      const answer = answers[key] ?? [];
      if (answer instanceof Error) throw answer;
      return { completionData: answer };
    },
  } as unknown as ApiClient;
  return { api, asked, other };
}

let counter = 0;
async function file(text: string): Promise<string> {
  const path = join(dir.path, `cohort-${++counter}.csv`);
  await writeFile(path, text);
  return path;
}

/**
 * Due 2026-11-27 (today, step 0): u1 twice (one mail), u5 completed; due 2026-12-04 (step 7
 * today): u2; due 2026-11-24 (step -3 today): u4; due 2026-11-30 (3 days ahead, no step today): u3.
 */
const COHORT = [
  "userId,simulationId,dueDate,email,managerEmail,firstName",
  "u1,s1,2026-11-27,ann@example.test,dana@example.test,Ann",
  "u1,s2,2026-11-27,ann@example.test,dana@example.test,Ann",
  "u2,s1,2026-12-04,bob@example.test,dana@example.test,Bob",
  "u3,s1,2026-11-30,cy@example.test,sam@example.test,Cy",
  "u4,s1,2026-11-24,dee@example.test,sam@example.test,Dee",
  "u5,s1,2026-11-27,eve@example.test,sam@example.test,Eve",
].join("\n");

async function world(env: Record<string, string> = {}) {
  const store = memoryStateStore();
  const clock = createFakeClock(NOW);
  const configDir = join(dir.path, `config-${++counter}`);
  const base = {
    SIMADMIN_BASE_URL: SERVICE,
    SIMADMIN_ORG: ORG,
    SIMADMIN_API_KEY: "sk-test",
    SIMADMIN_CONFIG_DIR: configDir,
    NODE_EXTRA_CA_CERTS: smtp.caFile,
    ...env,
  };
  const run = async (args: string[], answers: Answers = {}) => {
    const { api, asked, other } = scriptedClient(answers);
    const r = await runInProcess(["progress", "notify", ...args], { env: base, clock, fakes: { api, state: store } });
    return { ...r, asked, other };
  };
  /** The ledger as stored: one line per entry, sorted. */
  const ledger = async (): Promise<string[]> =>
    [...(await store.list(TENANT, "reminders")).values()]
      .map((v) => {
        const e = v as Record<string, unknown>;
        return e.kind === "digest"
          ? `${String(e.status)} digest ${String(e.to)} ${String(e.day)}`
          : `${String(e.status)} ${String(e.to)} ${String(e.userId)}/${String(e.simulationId)} due ${String(e.dueDate)} step ${String(e.step)}`;
      })
      .sort();
  return { store, clock, configDir, run, ledger };
}

type Row = Record<string, unknown>;
const brief = (stdout: string): string[] =>
  (JSON.parse(stdout) as Row[]).map(
    (x) => `${String(x.recipient)} ${String(x.kind)} ${String(x.step)} [${String(x.pairs)}] ${String(x.status)}`,
  );

async function outboxMails(path: string) {
  const names = (await readdir(path)).filter((n) => n.endsWith(".eml")).sort();
  return Promise.all(
    names.map(async (n) => ({ name: n, mail: await simpleParser(await readFile(join(path, n)), { skipTextToHtml: true }) })),
  );
}

describe("progress notify with a scripted service", () => {
  it("--plan: the messages due today, the most overdue first; only pairs with something due are asked; nothing recorded (exit 12)", async () => {
    const w = await world();
    const path = await file(COHORT);
    const r = await w.run(["--from-csv", path, "--plan", "-o", "json"], { "u5/s1": done, "u2/s1": started });
    expect(r.exitCode, r.stderr).toBe(12);
    expect(r.asked.sort()).toEqual(["u1/s1", "u1/s2", "u2/s1", "u4/s1", "u5/s1"]);
    expect(brief(r.stdout)).toEqual([
      "dee@example.test reminder -3 [u4/s1] planned",
      "ann@example.test reminder 0 [u1/s1 u1/s2] planned",
      "bob@example.test reminder 7 [u2/s1] planned",
    ]);
    const first = (JSON.parse(r.stdout) as Row[])[0]!;
    expect(first.sent).toBe(false);
    expect(first.detail).toBe("");
    expect(String(first.messageId)).toMatch(/^<[0-9a-f]{32}\.simadmin@simadmin\.invalid>$/);
    expect(r.stderr).toContain(`plan: 3 reminders and 0 digests due on ${TODAY}; nothing was sent or recorded`);
    expect(r.stderr).toContain("plan: 3 messages to send; nothing was sent");
    expect(r.stderr).toContain("5 pairs to ask, 0 cached: ");
    // Overdue or due within 7 days: u1 twice, u4, u5 (u2 is due in 7 days).
    expect(r.stderr).toContain("(4 overdue or due within 7 days first)");
    expect(r.stderr).not.toContain("left unsure");
    expect(r.stderr).not.toContain("refused by the service");
    expect(await w.ledger()).toEqual([]);

    const one = await w.run(["--from-csv", path, "--plan", "--schedule", "-3", "-o", "json"]);
    expect(one.stderr).toContain("plan: 1 message to send; nothing was sent");
    expect(one.stderr).toContain(`plan: 1 reminder and 0 digests due on ${TODAY};`);
    const none = await w.run(["--from-csv", path, "--plan", "--schedule", "30"]);
    expect(none.exitCode, none.stderr).toBe(0);
    expect(none.asked).toEqual([]);
    expect(none.stderr).not.toContain("to ask");
  });

  it("--outbox: one .eml per message, each step recorded sent with its pair; a re-run sends nothing and asks nothing", async () => {
    const w = await world();
    const path = await file(COHORT);
    const outbox = join(dir.path, `outbox-${counter}`);
    const r = await w.run(["--from-csv", path, "--outbox", outbox, "--from", FROM, "-o", "json"], { "u5/s1": done });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(brief(r.stdout)).toEqual([
      "dee@example.test reminder -3 [u4/s1] sent",
      "ann@example.test reminder 0 [u1/s1 u1/s2] sent",
      "bob@example.test reminder 7 [u2/s1] sent",
    ]);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(rows.every((x) => x.sent === true)).toBe(true);
    expect(String(rows[0]!.messageId)).toMatch(/^<[0-9a-f]{32}\.simadmin@example\.test>$/);
    expect(rows[0]!.detail).toBe(join(outbox, `reminder-${String(rows[0]!.messageId).slice(1, 33)}.simadmin.eml`));
    expect(r.stderr).toContain(`sending 3 messages through ${outbox}`);
    expect(r.stderr).toContain(`3 reminders and 0 digests due on ${TODAY}: 3 sent through ${outbox}\n`);
    const mails = await outboxMails(outbox);
    expect(mails.map((m) => (Array.isArray(m.mail.to) ? "" : m.mail.to?.text)).sort()).toEqual([
      "ann@example.test",
      "bob@example.test",
      "dee@example.test",
    ]);
    const ann = mails.find((m) => !Array.isArray(m.mail.to) && m.mail.to?.text === "ann@example.test")!.mail;
    expect(ann.subject).toBe(`Due today: 2 simulation(s) due today, ${TODAY}`);
    expect(ann.from?.text).toBe('"Training" <training@example.test>');
    expect(ann.messageId).toBe(String(rows[1]!.messageId));
    expect(ann.text).toContain("s1");
    expect(ann.text).toContain("s2");
    expect(await w.ledger()).toEqual([
      "sent ann@example.test u1/s1 due 2026-11-27 step 0",
      "sent ann@example.test u1/s2 due 2026-11-27 step 0",
      "sent bob@example.test u2/s1 due 2026-12-04 step 7",
      "sent dee@example.test u4/s1 due 2026-11-24 step -3",
    ]);
    const entry = [...(await w.store.list(TENANT, "reminders")).values()][0] as Record<string, unknown>;
    expect(entry.claimedBy).toBe(`${hostname()} pid ${process.pid}`);
    expect(entry.kind).toBe("reminder");
    expect(entry.at).toBe(new Date(NOW).toISOString());

    const again = await w.run(["--from-csv", path, "--outbox", outbox, "--from", FROM, "-o", "json"], { "u5/s1": done });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual([]);
    expect(again.stderr).toContain(`nothing to send today (${TODAY})`);
    // Every step sent is in the ledger, and u5 is cached completed: no request at all.
    expect(again.asked).toEqual([]);
    expect(await outboxMails(outbox)).toHaveLength(3);
    // --refresh asks the cached pair again.
    const refreshed = await w.run(["--from-csv", path, "--outbox", outbox, "--from", FROM, "--refresh"], { "u5/s1": done });
    expect(refreshed.asked).toEqual(["u5/s1"]);
  });

  it("--digest: one digest per manager listing the open pairs; recorded per manager and day", async () => {
    const w = await world();
    const path = await file(COHORT);
    const outbox = join(dir.path, `outbox-${counter}`);
    const r = await w.run(["--from-csv", path, "--outbox", outbox, "--from", FROM, "--digest", "managerEmail", "-o", "json"], {
      "u5/s1": done,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(brief(r.stdout).slice(3)).toEqual([
      "dana@example.test digest null [u1/s1 u1/s2 u2/s1] sent",
      "sam@example.test digest null [u4/s1 u3/s1] sent", // overdue first
    ]);
    // The digest asks every open pair of a manager, u3 too (no step of its own today).
    expect(r.asked.sort()).toEqual(["u1/s1", "u1/s2", "u2/s1", "u3/s1", "u4/s1", "u5/s1"]);
    expect(r.stderr).toContain(`3 reminders and 2 digests due on ${TODAY}: 5 sent through ${outbox}`);
    expect((await w.ledger()).filter((l) => l.includes("digest"))).toEqual([
      `sent digest dana@example.test ${TODAY}`,
      `sent digest sam@example.test ${TODAY}`,
    ]);
    const sam = (await outboxMails(outbox)).find((m) => m.name.startsWith("digest-") && m.mail.text?.includes("dee@"))!.mail;
    expect(sam.subject).toBe(`Training digest ${TODAY}: 2 open, 1 overdue`);
    expect(sam.text).toContain("dee@example.test: s1, due 2026-11-24, 3 days overdue");
  });

  it("--max: the most overdue first; the others held for a later run, not recorded", async () => {
    const w = await world();
    const path = await file(COHORT);
    const outbox = join(dir.path, `outbox-${counter}`);
    const r = await w.run(["--from-csv", path, "--outbox", outbox, "--from", FROM, "--max", "1", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(brief(r.stdout)).toEqual([
      "dee@example.test reminder -3 [u4/s1] sent",
      "ann@example.test reminder 0 [u1/s1 u1/s2] held",
      "eve@example.test reminder 0 [u5/s1] held",
      "bob@example.test reminder 7 [u2/s1] held",
    ]);
    expect((JSON.parse(r.stdout) as Row[])[1]!.detail).toBe("over --max 1: sent by a later run");
    expect(r.stderr).toContain(`sending 1 message through ${outbox}`);
    expect(r.stderr).toContain(`4 reminders and 0 digests due on ${TODAY}: 1 sent through ${outbox}, 3 held by --max\n`);
    expect(await w.ledger()).toEqual(["sent dee@example.test u4/s1 due 2026-11-24 step -3"]);
  });

  it("a pair the service refuses gets no mail, with a line naming the progress command; the rest are sent", async () => {
    const w = await world();
    const path = await file(COHORT);
    const outbox = join(dir.path, `outbox-${counter}`);
    const r = await w.run(["--from-csv", path, "--outbox", outbox, "--from", FROM, "-o", "json"], {
      "u5/s1": done,
      "u2/s1": new NotFoundError("completion-data: no such user"),
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `1 pair refused by the service (unknown user or simulation): no mail for them; see \`simadmin progress --from-csv ${path}\``,
    );
    expect(brief(r.stdout).map((l) => l.split(" ")[0])).toEqual(["dee@example.test", "ann@example.test"]);
    const fresh = await world();
    const two = await fresh.run(["--from-csv", path, "--plan", "-o", "json"], {
      "u1/s1": new NotFoundError("completion-data: gone"),
      "u1/s2": new NotFoundError("completion-data: gone"),
      "u2/s1": new NotFoundError("completion-data: gone"),
      "u4/s1": new NotFoundError("completion-data: gone"),
      "u5/s1": new NotFoundError("completion-data: gone"),
    });
    expect(two.stderr).toContain("5 pairs refused by the service");
  });

  it("a step an earlier run left sending is ambiguous: named, not sent again; --resend-ambiguous sends it on its day", async () => {
    const w = await world();
    const path = await file(COHORT);
    const outbox = join(dir.path, `outbox-${counter}`);
    await w.run(["--from-csv", path, "--outbox", outbox, "--from", FROM, "--schedule", "-3", "--digest", "managerEmail"], {
      "u5/s1": done,
    });
    // As a run killed during the transactions leaves them: claimed, never marked sent.
    for (const [key, value] of await w.store.list(TENANT, "reminders")) {
      await w.store.put(TENANT, "reminders", {
        [key]: { ...(value as object), status: "sending", claimedBy: "other-host pid 7", at: "2026-11-27T05:00:00.000Z" },
      });
    }
    const r = await w.run(["--from-csv", path, "--plan", "--schedule", "-3", "--digest", "managerEmail", "-o", "json"], {
      "u5/s1": done,
    });
    // Nothing else is due: the plan has nothing to send (exit 0), the unsure ones are listed.
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      "1 reminder step and 2 digests left unsure by an earlier run (killed or cut off during the SMTP transaction, or its state store gone) are not sent again: listed with status ambiguous; check the recipients' mailboxes, and send the steps with --resend-ambiguous on their day",
    );
    const rows = JSON.parse(r.stdout) as Row[];
    expect(brief(r.stdout)).toEqual([
      "dee@example.test reminder -3 [u4/s1] ambiguous",
      "dana@example.test digest null [] ambiguous",
      "sam@example.test digest null [] ambiguous",
    ]);
    expect(rows[0]).toMatchObject({
      sent: false,
      detail:
        "left unsure by other-host pid 7 at 2026-11-27T05:00:00.000Z: not sent again (check the mailbox, then --resend-ambiguous on its day)",
    });
    expect(String(rows[0]!.messageId)).toMatch(/^<[0-9a-f]{32}\.simadmin@example\.test>$/);
    expect(rows[1]!.sent).toBe(false);
    expect(rows[1]!.detail).toBe(
      "left unsure by other-host pid 7 at 2026-11-27T05:00:00.000Z: a digest is not sent again the same day (check the mailbox)",
    );

    const digestOnly = await w.run(["--from-csv", path, "--plan", "--schedule", "5", "--digest", "managerEmail"]);
    expect(digestOnly.stderr).not.toContain("reminder step");
    expect(digestOnly.stderr).toContain(
      "warning: 2 digests left unsure by an earlier run (killed or cut off during the SMTP transaction, or its state store gone) are not sent again: listed with status ambiguous; check the recipients' mailboxes\n",
    );

    const resent = await w.run(
      ["--from-csv", path, "--outbox", outbox, "--from", FROM, "--schedule", "-3", "--resend-ambiguous", "-o", "json"],
      { "u5/s1": done },
    );
    expect(resent.exitCode, resent.stderr).toBe(0);
    expect(brief(resent.stdout)).toEqual(["dee@example.test reminder -3 [u4/s1] sent"]);
    expect((await w.ledger()).filter((l) => l.includes("dee"))).toEqual(["sent dee@example.test u4/s1 due 2026-11-24 step -3"]);
  });

  it("with a links URL each open pair's mail carries a durable link, and --plan makes none", async () => {
    const w = await world({ SIMADMIN_LINKS_URL: "https://links.example.test" });
    const path = await file(COHORT);
    const outbox = join(dir.path, `outbox-${counter}`);
    const r = await w.run(["--from-csv", path, "--outbox", outbox, "--from", FROM, "--schedule", "0"], { "u5/s1": done });
    expect(r.exitCode, r.stderr).toBe(0);
    const [ann] = await outboxMails(outbox);
    const links = ann!.mail.text!.match(/https:\/\/links\.example\.test\/l\/[A-Za-z0-9_-]+/g) ?? [];
    expect(new Set(links).size).toBe(2);
    expect(r.other).toEqual([]);

    const w2 = await world({ SIMADMIN_LINKS_URL: "https://links.example.test" });
    const plan = await w2.run(["--from-csv", path, "--plan"], { "u5/s1": done });
    expect(plan.exitCode, plan.stderr).toBe(12);
    // Nothing recorded but the completed pair in the cache: no link key made.
    expect([...w2.store.entries.keys()].map((k) => (JSON.parse(k) as string[])[2])).toEqual(["progress-cache"]);
  });

  it("a run that waited for the lock reads the ledger again: what the other run sent is not sent twice", async () => {
    const w = await world();
    const path = await file(COHORT);
    const outbox = join(dir.path, `outbox-${counter}`);
    const other = join(dir.path, `other-${counter}`);
    // The other run sends dee's step while this one waits for the lock.
    const lock = w.store.lock.bind(w.store);
    const locks: string[] = [];
    w.store.lock = async (...args) => {
      w.store.lock = lock;
      locks.push(`${args[1]} ${String(args[2].purpose)}`);
      await w.run(["--from-csv", path, "--outbox", other, "--from", FROM, "--schedule", "-3"], { "u5/s1": done });
      return lock(...args);
    };
    const r = await w.run(["--from-csv", path, "--outbox", outbox, "--from", FROM, "--schedule", "-3,0", "-o", "json"], {
      "u5/s1": done,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(brief(r.stdout)).toEqual([
      "dee@example.test reminder -3 [u4/s1] skipped",
      "ann@example.test reminder 0 [u1/s1 u1/s2] sent",
    ]);
    expect((JSON.parse(r.stdout) as Row[])[0]!.detail).toBe("already recorded by another run");
    expect(r.stderr).toContain(`2 reminders and 0 digests due on ${TODAY}: 1 sent through ${outbox}, 1 skipped (another run)\n`);
    expect((await outboxMails(outbox)).map((m) => m.mail.subject)).toEqual([`Due today: 2 simulation(s) due today, ${TODAY}`]);
    expect(locks).toEqual(["reminders simadmin progress notify"]);
  });

  it("--resend-ambiguous takes over only the steps the plan found ambiguous, not one left sending while it waited", async () => {
    const w = await world();
    const path = await file(COHORT);
    const outbox = join(dir.path, `outbox-${counter}`);
    // ann's first pair left sending by a killed run: her message (both pairs) goes again.
    await w.run(["--from-csv", path, "--outbox", join(dir.path, `other-${counter}`), "--from", FROM, "--schedule", "0"], {
      "u5/s1": done,
    });
    const [key, value] = [...(await w.store.list(TENANT, "reminders")).entries()].find(
      ([, v]) => (v as { userId: string; simulationId: string }).simulationId === "s1",
    )!;
    await w.store.put(TENANT, "reminders", { [key]: { ...(value as object), status: "sending" } });
    const other = [...(await w.store.list(TENANT, "reminders")).keys()].find((k) => k !== key)!;
    await w.store.put(TENANT, "reminders", { [other]: null });
    // While this run waits for the lock, a killed run leaves dee's step sending.
    const lock = w.store.lock.bind(w.store);
    w.store.lock = async (...args) => {
      w.store.lock = lock;
      await w.run(["--from-csv", path, "--outbox", join(dir.path, `third-${counter}`), "--from", FROM, "--schedule", "-3"], {
        "u5/s1": done,
      });
      const dee = [...(await w.store.list(TENANT, "reminders")).entries()].find(
        ([, v]) => (v as { to: string }).to === "dee@example.test",
      )!;
      await w.store.put(TENANT, "reminders", { [dee[0]]: { ...(dee[1] as object), status: "sending" } });
      return lock(...args);
    };
    const r = await w.run(
      ["--from-csv", path, "--outbox", outbox, "--from", FROM, "--schedule", "-3,0", "--resend-ambiguous", "-o", "json"],
      { "u5/s1": done },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(brief(r.stdout)).toEqual([
      "dee@example.test reminder -3 [u4/s1] skipped",
      "ann@example.test reminder 0 [u1/s1 u1/s2] sent",
    ]);
    expect((await outboxMails(outbox)).map((m) => m.mail.subject)).toEqual([`Due today: 2 simulation(s) due today, ${TODAY}`]);
  });

  it("a pair another run claims during this run's transaction: the message goes with this run's pairs only", async () => {
    const w = await world();
    const path = await file(COHORT);
    const outbox = join(dir.path, `outbox-${counter}`);
    const claimMany = w.store.claimMany.bind(w.store);
    let first = true;
    w.store.claimMany = async (tenant, kind, claims) => {
      if (first && kind === "reminders") {
        first = false;
        // Another run wins u1/s2's key (the second of ann's pairs) just before this claim.
        const key = Object.keys(claims)[1]!;
        await w.store.put(tenant, kind, { [key]: { ...(claims[key] as object), claimedBy: "other-host pid 9" } });
      }
      return claimMany(tenant, kind, claims);
    };
    const r = await w.run(["--from-csv", path, "--outbox", outbox, "--from", FROM, "--schedule", "0", "-o", "json"], {
      "u5/s1": done,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(brief(r.stdout)).toEqual(["ann@example.test reminder 0 [u1/s1] sent"]);
    const [ann] = await outboxMails(outbox);
    expect(ann!.mail.subject).toBe(`Due today: 1 simulation(s) due today, ${TODAY}`);
  });

  it("a links URL and every pair due already completed: no mail, so no link key is made", async () => {
    const w = await world({ SIMADMIN_LINKS_URL: "https://links.example.test" });
    // Only u4 has a step today at -3, and u4 has completed.
    const path = await file(COHORT);
    const outbox = join(dir.path, `outbox-${counter}`);
    const r = await w.run(["--from-csv", path, "--outbox", outbox, "--from", FROM, "--schedule", "-3"], { "u4/s1": done });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.asked).toEqual(["u4/s1"]);
    expect(r.stderr).toContain(`nothing to send today (${TODAY})`);
    expect(r.stderr).not.toContain("link key");
    // The completed pair in the cache, and nothing else: no link key in the store.
    expect([...w.store.entries.keys()].map((k) => (JSON.parse(k) as string[])[2])).toEqual(["progress-cache"]);
  });

  it("a ledger an older version kept in the settings directory is moved into the store first, said in one line, and read", async () => {
    // docs/reminders.md "Where the ledger lives": <settings>/reminders/<tenant hash>/<key>.json.
    const first = await world();
    const path = await file(COHORT);
    await first.run(["--from-csv", path, "--outbox", join(dir.path, `outbox-${counter}`), "--from", FROM, "--schedule", "-3"]);
    const [[key, entry]] = [...(await first.store.list(TENANT, "reminders")).entries()] as [[string, unknown]];

    const w = await world();
    const { createHash } = await import("node:crypto");
    const id = createHash("sha256").update(`${SERVICE}\n${ORG}`).digest("hex").slice(0, 16);
    const ledgerDir = join(w.configDir, "reminders", id);
    await mkdir(ledgerDir, { recursive: true });
    await writeFile(join(ledgerDir, `${encodeURIComponent(key)}.json`), JSON.stringify(entry));
    const r = await w.run(["--from-csv", path, "--plan", "--schedule", "-3"]);
    expect(r.stderr).toContain(`moved the reminder ledger (1 entry) from ${ledgerDir} into the state store memory\n`);
    // dee's step -3 was sent by the older version: nothing is due (exit 0), nothing asked.
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.asked).toEqual([]);
    expect(await w.ledger()).toEqual(["sent dee@example.test u4/s1 due 2026-11-24 step -3"]);
  });

  it("the file's warnings are shown; a row without a manager is in no digest; one ambiguous step is named", async () => {
    const w = await world();
    const path = await file(
      "userId,simulationId,dueDate,email,boss,Deadline\nu1,s1,2026-11-27,ann@example.test,,x\nu2,s1,2026-11-27,bob@example.test,dana@example.test,y\n",
    );
    const outbox = join(dir.path, `outbox-${counter}`);
    const r = await w.run(["--from-csv", path, "--outbox", outbox, "--from", FROM, "--digest", "boss", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${path}: "Deadline" (column 6) looks like a due date but the due date is read from column 3;`);
    expect(brief(r.stdout)).toEqual([
      "ann@example.test reminder 0 [u1/s1] sent",
      "bob@example.test reminder 0 [u2/s1] sent",
      "dana@example.test digest null [u2/s1] sent",
    ]);
    const [key] = [...(await w.store.list(TENANT, "reminders")).entries()].find(
      ([, v]) => (v as { to: string }).to === "ann@example.test",
    )!;
    await w.store.put(TENANT, "reminders", {
      [key]: { ...((await w.store.get(TENANT, "reminders", key)) as object), status: "sending" },
    });
    const again = await w.run(["--from-csv", path, "--plan", "--digest", "boss"]);
    expect(again.stderr).toContain(
      "1 reminder step left unsure by an earlier run (killed or cut off during the SMTP transaction, or its state store gone) is not sent again:",
    );
  });
});

describe("progress notify through a real SMTP server", () => {
  // --rate 0: no pacing between messages (docs/reminders.md "Pacing"), so a run takes milliseconds.
  const args = (path: string) => ["--from-csv", path, "--smtp", smtp.url, "--from", FROM, "--rate", "0", "-o", "json"];

  it("a recipient refused for two messages is one recipient refused", async () => {
    const w = await world();
    const path = await file(
      "userId,simulationId,dueDate,email\nu1,s1,2026-11-27,bob@example.test\nu1,s2,2026-12-04,bob@example.test\nu2,s1,2026-11-27,cy@example.test\n",
    );
    smtp.refuse.add("bob@example.test");
    try {
      const r = await w.run(args(path));
      expect(r.exitCode).toBe(6);
      expect(brief(r.stdout)).toEqual([
        "bob@example.test reminder 0 [u1/s1] refused",
        "cy@example.test reminder 0 [u2/s1] sent",
        "bob@example.test reminder 7 [u1/s2] refused",
      ]);
      expect(r.stderr, r.stderr).toContain("the mail server refused 1 recipient: bob@example.test;");
      smtp.refuse.add("cy@example.test");
      const two = await (await world()).run(args(path));
      expect(two.stderr, two.stderr).toContain("the mail server refused 2 recipients: bob@example.test, cy@example.test;");
    } finally {
      smtp.refuse.clear();
    }
  });

  it("the progress line counts the messages sent (without a terminal: written once 25 s have passed)", async () => {
    // docs/ci-and-cron.md "Heartbeats": the latest progress text, with the time so far. The
    // server moves the clock 30 s per message; one connection sends them one after the other.
    // The heartbeat's own 1 s timer may write the line before the count is updated: then the
    // next message's line shows the count.
    const w = await world();
    const path = await file(
      "userId,simulationId,dueDate,email\nu1,s1,2026-11-27,bob@example.test\nu2,s1,2026-11-27,cy@example.test\n",
    );
    smtp.beforeAccept = () => w.clock.advance(30_000);
    try {
      const r = await w.run([...args(path), "--connections", "1"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^sending [12]\/2 messages \((30s|1m) so far\)$/m);
    } finally {
      smtp.beforeAccept = undefined;
    }
  });

  it("sends through the server; a refused recipient is exit 6 naming it, released for the next run", async () => {
    const w = await world();
    const path = await file(COHORT);
    const before = smtp.received.length;
    smtp.refuse.add("bob@example.test");
    try {
      const r = await w.run(args(path), { "u5/s1": done });
      expect(r.exitCode).toBe(6);
      expect(r.stderr).toContain("the mail server refused 1 recipient: bob@example.test");
      expect(r.stderr).toContain("correct their addresses in the file; the next run tries them again");
      expect(brief(r.stdout)).toEqual([
        "dee@example.test reminder -3 [u4/s1] sent",
        "ann@example.test reminder 0 [u1/s1 u1/s2] sent",
        "bob@example.test reminder 7 [u2/s1] refused",
      ]);
      expect((JSON.parse(r.stdout) as Row[])[2]!.detail).toMatch(/550/);
      const host = `smtp://127.0.0.1:${smtp.port}`;
      expect(r.stderr).toContain(`3 reminders and 0 digests due on ${TODAY}: 2 sent through ${host}, 1 refused\n`);
      expect(r.stderr + r.stdout).not.toContain(SMTP_PASSWORD);
      expect(smtp.received.slice(before).map((m) => m.envelopeTo.join())).toEqual(["dee@example.test", "ann@example.test"]);
      expect(await w.ledger()).toHaveLength(3);
    } finally {
      smtp.refuse.clear();
    }
    const retry = await w.run(args(path), { "u5/s1": done });
    expect(retry.exitCode, retry.stderr).toBe(0);
    expect(brief(retry.stdout)).toEqual(["bob@example.test reminder 7 [u2/s1] sent"]);
  });

  it("a connection broken during DATA: the message ambiguous, exit 8 saying it may or may not have arrived", async () => {
    const w = await world();
    const path = await file(COHORT);
    smtp.dropDuringDataTo.add("ann@example.test");
    const r = await w.run([...args(path), "--connections", "1"], { "u5/s1": done });
    smtp.dropDuringDataTo.clear();
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toContain(
      `1 message may or may not have reached smtp://127.0.0.1:${smtp.port} (the connection broke during the transaction)`,
    );
    expect(r.stderr).toContain("check the mailboxes, then run with --resend-ambiguous the same day if they are missing");
    expect(brief(r.stdout)).toContainEqual("ann@example.test reminder 0 [u1/s1 u1/s2] ambiguous");
    expect(r.stderr).toContain(", 1 ambiguous");
    expect(await w.ledger()).toContain("sending ann@example.test u1/s1 due 2026-11-27 step 0");
  });

  it("a server that refuses the sender after the login: exit 8, the messages not tried listed not sent, nothing recorded", async () => {
    const w = await world();
    const path = await file(COHORT);
    smtp.refuseSender = true;
    try {
      const r = await w.run([...args(path), "--connections", "1", "--max", "2"], { "u5/s1": done });
      expect(r.exitCode).toBe(8);
      const host = `smtp://127.0.0.1:${smtp.port}`;
      expect(r.stderr).toContain(`the mail server ${host} could not be reached after 0 messages: sender refused: 553 `);
      expect(r.stderr).toContain("the messages not sent are not recorded: run again once the server is back");
      expect(r.stderr).toContain(
        `3 reminders and 0 digests due on ${TODAY}: 0 sent through ${host}, 2 not sent, 1 held by --max\n`,
      );
      expect(brief(r.stdout)).toEqual([
        "dee@example.test reminder -3 [u4/s1] not-sent",
        "ann@example.test reminder 0 [u1/s1 u1/s2] not-sent",
        "bob@example.test reminder 7 [u2/s1] held",
      ]);
      expect(await w.ledger()).toEqual([]);
    } finally {
      smtp.refuseSender = false;
    }
  });

  it("the URL's password is redacted even from the server's own words", async () => {
    const w = await world();
    const path = await file(COHORT);
    smtp.echoPassword = true;
    try {
      const r = await w.run(args(path), { "u5/s1": done });
      expect(r.exitCode).toBe(8);
      expect(r.stderr).toContain(`cannot reach the mail server smtp://127.0.0.1:${smtp.port}: `);
      expect(r.stderr).toContain(`no login ${SMTP_USER} with password `);
      expect(r.stderr).not.toContain("s3cret");
    } finally {
      smtp.echoPassword = false;
    }
  });

  it("a server that cannot be reached: exit 8 naming it without the password; nothing recorded", async () => {
    const w = await world();
    const path = await file(COHORT);
    const port = await closedPort();
    const r = await w.run(["--from-csv", path, "--from", FROM], { "u5/s1": done });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("no mail delivery: pass --smtp <url>, set SIMADMIN_SMTP_URL, or write files with --outbox <dir>");
    expect(r.stderr).toContain("--plan shows what would be sent without either");
    const w2 = await world({ SIMADMIN_SMTP_URL: `smtp://relay-user:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${port}` });
    const down = await w2.run(["--from-csv", path, "--from", FROM], { "u5/s1": done });
    expect(down.exitCode).toBe(8);
    expect(down.stderr).toContain(`cannot reach the mail server smtp://127.0.0.1:${port}: `);
    expect(down.stderr).toContain("; nothing was sent");
    expect(down.stderr).toContain("check --smtp / SIMADMIN_SMTP_URL (host, port, user and password)");
    expect(down.stderr + down.stdout).not.toContain(SMTP_PASSWORD);
    expect(down.stderr + down.stdout).not.toContain(encodeURIComponent(SMTP_PASSWORD));
    expect(await w2.ledger()).toEqual([]);
  });
});

describe("progress notify: what is checked before anything is asked or sent", () => {
  it("the delivery, the sender and the options that cannot go together", async () => {
    const w = await world();
    const path = await file(COHORT);
    const outbox = join(dir.path, `outbox-${counter}`);
    for (const [extra, message, hint] of [
      [["--outbox", outbox], "--from <address> is needed to send", "e.g. --from 'Training <training@example.com>'"],
      [
        ["--outbox", outbox, "--from", "Training"],
        '--from: "Training" is not an email address',
        "e.g. --from training@example.com or --from 'Training <training@example.com>'",
      ],
      [
        ["--outbox", outbox, "--from", "Training <training@example.test> today"],
        '--from: "Training <training@example.test> today" is not an email address',
        "e.g. --from training@example.com",
      ],
      [
        ["--outbox", outbox, "--smtp", "smtp://h:25"],
        "--smtp and --outbox are two deliveries; give one",
        "--outbox writes .eml files and sends nothing",
      ],
      [["--plan", "--resend-ambiguous"], "--resend-ambiguous sends; it cannot go with --plan", ""],
      [["--smtp", "not a url", "--from", FROM], "--smtp is not a URL", "use smtp://user:password@host:587 or smtps://host:465"],
      [
        ["--smtp", "https://h", "--from", FROM],
        "--smtp must be an smtp:// or smtps:// URL with a host",
        "use smtp://user:password@host:587 (STARTTLS when offered) or smtps://host:465 (TLS from the start)",
      ],
      [["--plan", "--schedule", "7,x"], "--schedule: ", "give days relative to the due date, e.g. 7,1,0,-3,-7"],
      [
        ["--plan", "--digest", "boss"],
        `--digest boss: ${path} has no such column`,
        "its columns: userId, simulationId, dueDate, email, managerEmail, firstName",
      ],
    ] as const) {
      const r = await w.run(["--from-csv", path, ...extra]);
      expect(r.exitCode, extra.join(" ")).toBe(2);
      expect(r.stderr, extra.join(" ")).toContain(message);
      expect(r.stderr, extra.join(" ")).toContain(hint);
      expect(r.asked, extra.join(" ")).toEqual([]);
    }
    const blank = await world({ SIMADMIN_SMTP_URL: "  " });
    expect((await blank.run(["--from-csv", path, "--from", FROM])).stderr).toContain("no mail delivery: pass --smtp <url>");
    const env = await world({ SIMADMIN_SMTP_URL: "ftp://h" });
    const fromEnv = await env.run(["--from-csv", path, "--from", FROM]);
    expect(fromEnv.stderr).toContain("SIMADMIN_SMTP_URL must be an smtp:// or smtps:// URL with a host");
    // An address with spaces around it, inside or outside the angle brackets, is taken.
    for (const from of ["Training <training@example.test>  ", " training@example.test "]) {
      const taken = await w.run(["--from-csv", path, "--outbox", `${outbox}-from`, "--from", from, "--schedule", "30"]);
      expect(taken.exitCode, `${from}: ${taken.stderr}`).toBe(0);
    }
    const digest = await w.run(["--from-csv", path, "--plan", "--digest", "manager_email", "-o", "json"], { "u5/s1": done });
    expect(digest.exitCode, digest.stderr).toBe(12);
    expect(brief(digest.stdout)).toContain("dana@example.test digest null [u1/s1 u1/s2 u2/s1] planned");
  });

  it("every address is checked: rows listed, exit 6, nothing asked", async () => {
    const w = await world();
    const path = await file(
      "userId,simulationId,dueDate,E-Mail,boss\nu1,s1,2026-11-27,,x@example.test\nu2,s1,2026-11-27,nope,not-an-address\nu3,s1,2026-11-27,c@example.test,\n",
    );
    const r = await w.run(["--from-csv", path, "--plan", "--digest", "boss", "-o", "json"]);
    expect(r.exitCode).toBe(6);
    expect(r.asked).toEqual([]);
    expect(r.stderr).toContain(`${path}: 2 invalid rows; nothing was sent`);
    expect(r.stderr).toContain(
      "fix them (listed above; rows are spreadsheet rows, the header is row 1) and run the command again",
    );
    // The file's problems and the addresses' together, by row.
    const mixed = await w.run([
      "--from-csv",
      await file("userId,simulationId,dueDate,email\nu1,s1,2026-11-27,nope\n,s1,2026-11-27,a@example.test\nu3,s1,2026-11-27,\n"),
      "--plan",
      "-o",
      "json",
    ]);
    expect((JSON.parse(mixed.stdout) as Row[]).map((x) => `${String(x.row)} ${String(x.field)}`)).toEqual([
      "2 email",
      "3 userId",
      "4 email",
    ]);
    expect((JSON.parse(r.stdout) as Row[]).map((x) => `${String(x.row)} ${String(x.field)}: ${String(x.message)}`)).toEqual([
      "2 E-Mail: required but empty",
      "3 E-Mail: not a valid email address",
      "3 boss: not a valid email address (--digest)",
    ]);
    const none = await w.run(["--from-csv", await file("userId,simulationId,dueDate\nu1,s1,2026-11-27\n"), "--plan"]);
    expect(none.exitCode).toBe(6);
    expect(none.stderr).toContain("has no email column: reminders need the trainee's address");
    expect(none.stderr).toContain("add a column named email with each trainee's address");
  });

  it("addresses are read without the spaces around them (a blank manager is none); --digest names a column exactly before by its normalised name", async () => {
    const w = await world();
    const path = await file(
      "userId,simulationId,dueDate,email,Manager Email,managerEmail\nu1,s1,2026-11-27, ann@example.test , x@example.test , dana@example.test \nu2,s1,2026-11-27,bob@example.test,,  \n",
    );
    const r = await w.run(["--from-csv", path, "--plan", "--digest", "managerEmail", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(12);
    expect(brief(r.stdout)).toEqual([
      "ann@example.test reminder 0 [u1/s1] planned",
      "bob@example.test reminder 0 [u2/s1] planned",
      "dana@example.test digest null [u1/s1] planned",
    ]);
    const normalised = await w.run(["--from-csv", path, "--plan", "--digest", "manager_email", "-o", "json"]);
    expect(brief(normalised.stdout)).toContain("x@example.test digest null [u1/s1] planned");
  });

  it("an smtps:// URL is taken (TLS from the start); an smtp:// URL without a host is refused", async () => {
    const w = await world();
    const path = await file(COHORT);
    const port = await closedPort();
    const tls = await w.run(["--from-csv", path, "--from", FROM, "--smtp", `smtps://127.0.0.1:${port}`], { "u5/s1": done });
    expect(tls.exitCode, tls.stderr).toBe(8);
    expect(tls.stderr).toContain(`cannot reach the mail server smtps://127.0.0.1:${port}: `);
    const hostless = await w.run(["--from-csv", path, "--from", FROM, "--smtp", "smtp://"]);
    expect(hostless.exitCode).toBe(2);
    expect(hostless.stderr).toContain("--smtp must be an smtp:// or smtps:// URL with a host");
  });

  it("--template: each file needed is named when missing; the digest's own placeholders are checked", async () => {
    const w = await world();
    const path = await file(COHORT);
    const templates = join(dir.path, `templates-${counter}`);
    await mkdir(templates, { recursive: true });
    for (const [name, text] of [
      ["subject.txt", "  {{when}} for {{firstName}}\n"],
      ["body.txt", "Hello {{firstName}}: {{pairs}}\n"],
    ]) {
      const before = await w.run(["--from-csv", path, "--plan", "--template", templates]);
      expect(before.exitCode, before.stderr).toBe(11);
      expect(before.stderr).toContain(`cannot read ${join(templates, name!)}: `);
      expect(before.stderr).toContain(`--template needs ${name!} in ${templates}`);
      await writeFile(join(templates, name!), text!);
    }
    const missing = await w.run(["--from-csv", path, "--plan", "--template", templates]);
    expect(missing.exitCode).toBe(11);
    expect(missing.stderr).toContain(`cannot read ${join(templates, "body.html")}: `);
    expect(missing.stderr).toContain(`--template needs body.html in ${templates}`);
    await writeFile(join(templates, "body.html"), "<p>Hello {{simulationId}}</p>{{pairs}}\n");
    // The id columns are not placeholders of their own (the pairs are listed by {{pairs}}).
    const ids = await w.run(["--from-csv", path, "--plan", "--template", templates]);
    expect(ids.exitCode).toBe(2);
    expect(ids.stderr).toContain(`--template: ${join(templates, "body.html")} uses {{simulationId}}, which no message has`);
    await writeFile(join(templates, "subject.txt"), "{{frist}}\n");
    const subject = await w.run(["--from-csv", path, "--plan", "--template", templates]);
    expect(subject.stderr).toContain(`${join(templates, "subject.txt")} uses {{frist}}`);
    await writeFile(join(templates, "subject.txt"), "  {{when}} for {{firstName}}\n");
    await writeFile(join(templates, "body.txt"), "{{frist}}\n");
    const text = await w.run(["--from-csv", path, "--plan", "--template", templates]);
    expect(text.stderr).toContain(`${join(templates, "body.txt")} uses {{frist}}`);
    await writeFile(join(templates, "body.txt"), "Hello {{firstName}}: {{pairs}}\n");
    await writeFile(join(templates, "body.html"), "<p>Hello {{firstName}}</p>{{pairs}}\n");
    await writeFile(join(templates, "digest-body.html"), "<p>{{firstName}}</p>\n");
    const digest = await w.run(["--from-csv", path, "--plan", "--template", templates]);
    expect(digest.exitCode).toBe(2);
    expect(digest.stderr).toContain(
      `--template: ${join(templates, "digest-body.html")} uses {{firstName}}, which no message has`,
    );
    expect(digest.stderr).toContain("known placeholders: manager, today, count, overdue, trainees, pairs");
    await writeFile(join(templates, "digest-body.html"), "<p>{{manager}}: {{pairs}}</p>\n");
    await writeFile(join(templates, "digest-subject.txt"), "  Digest for {{manager}}\n");
    const outbox = join(dir.path, `outbox-${counter}`);
    const r = await w.run(
      ["--from-csv", path, "--outbox", outbox, "--from", FROM, "--template", templates, "--digest", "managerEmail"],
      {
        "u5/s1": done,
      },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const mails = await outboxMails(outbox);
    // Read from the files themselves: mailparser trims a subject, the template's spaces and
    // line break must not reach the header.
    const subjects = await Promise.all(
      mails.map(async (m) => /^Subject: (.*)$/m.exec(await readFile(join(outbox, m.name), "utf8"))?.[1]),
    );
    expect(subjects.sort()).toEqual([
      "Digest for dana@example.test",
      "Digest for sam@example.test",
      "Due today for Ann",
      "Overdue for Dee",
      "Reminder for Bob",
    ]);
    const dana = mails.find((m) => m.mail.subject === "Digest for dana@example.test")!.mail;
    expect(dana.html).toContain("<p>dana@example.test: ");
    // The digest's text part, not given, is the built-in one.
    expect(dana.text).toContain("bob@example.test: s1, due 2026-12-04");
  });
});
