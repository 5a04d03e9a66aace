import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import { closedPort, ROOMY, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";
import { SMTP_PASSWORD, startTestSmtp, type TestSmtp } from "../helpers/smtp.js";

// progress notify (docs/cli-contract.md "Reminders", docs/reminders.md) in process, against the
// sandbox (its scripted pairs: src/sandbox/progress-script.ts — emma/sim-004, emma/sim-005,
// grace/sim-004 and hugo/sim-003 never complete; hugo/sim-001 and ben/sim-003 are completed) and
// a real SMTP server on loopback (STARTTLS with the tests' private CA, AUTH). The clock is
// injected: the days of the schedule pass in milliseconds.

const at = (date: string): number => Date.parse(`${date}T06:00:00Z`);
const FROM = "Training <training@example.test>";

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

let env: TestEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
  smtp.refuse.clear();
});

let counter = 0;
async function cohort(firstName = (u: string) => u.slice(5, 6).toUpperCase() + u.slice(6)): Promise<string> {
  const rows = [
    ["user-emma", "sim-004", "emma@example.test", "dana@example.test"],
    ["user-emma", "sim-005", "emma@example.test", "dana@example.test"],
    ["user-grace", "sim-004", "grace@example.test", "dana@example.test"],
    ["user-hugo", "sim-003", "hugo@example.test", "sam@example.test"],
    ["user-hugo", "sim-001", "hugo@example.test", "sam@example.test"],
    ["user-ben", "sim-003", "ben@example.test", "sam@example.test"],
  ];
  const path = join(dir.path, `cohort-${++counter}.csv`);
  const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
  await writeFile(
    path,
    [
      "userId,simulationId,dueDate,email,managerEmail,firstName",
      ...rows.map(([u, s, e, m]) => [u, s, "2026-11-27", e, m, quote(firstName(u!))].join(",")),
    ].join("\n"),
  );
  return path;
}

async function start(): Promise<TestEnv> {
  env = await startTestEnv({ ...ROOMY, now: () => clock.now(), scriptedAttemptStepMs: 30_000 });
  return env;
}
let clock = createFakeClock(at("2026-11-20"));

// --rate 0: no pacing between messages (docs/reminders.md "Pacing"; the pacing itself is
// test/unit/reminders-smtp-pool.test.ts's), so a run takes milliseconds, not 200 ms a message; a
// test that gives --rate keeps its own.
function notify(t: TestEnv, file: string, ...extra: string[]) {
  const rate = extra.includes("--rate") ? [] : ["--rate", "0"];
  return t.capture(
    ["progress", "notify", "--from-csv", file, "--smtp", smtp.url, "--from", FROM, "-o", "json", ...rate, ...extra],
    {
      clock,
      env: { NODE_EXTRA_CA_CERTS: smtp.caFile },
    },
  );
}

type Row = Record<string, unknown>;
const mailsSince = (n: number) => smtp.received.slice(n);

describe("progress notify", () => {
  it("sends each step of the schedule on its day, once, to the pairs not completed; a re-run sends nothing", async () => {
    clock = createFakeClock(at("2026-11-19"));
    const t = await start();
    const file = await cohort();
    const perDay: Record<string, string[]> = {};
    for (const date of [
      "2026-11-19",
      "2026-11-20",
      "2026-11-21",
      "2026-11-26",
      "2026-11-27",
      "2026-11-30",
      "2026-12-04",
      "2026-12-05",
    ]) {
      clock.advance(at(date) - clock.now());
      const before = smtp.received.length;
      const r = await notify(t, file);
      expect(r.exitCode, r.stderr).toBe(0);
      const again = await notify(t, file);
      expect(again.exitCode, again.stderr).toBe(0);
      perDay[date] = mailsSince(before)
        .map((m) => `${m.envelopeTo.join()}:${m.parsed.subject}`)
        .sort();
    }
    const step = (subject: string) =>
      ["emma@example.test", "grace@example.test", "hugo@example.test"].map((to) => `${to}:${subject}`);
    expect(perDay).toEqual({
      "2026-11-19": [],
      "2026-11-20": step("Reminder: " + "1 simulation(s) due in 7 days, on 2026-11-27").map((s) =>
        s.startsWith("emma") ? s.replace("1 simulation", "2 simulation") : s,
      ),
      "2026-11-21": [],
      "2026-11-26": step("Reminder: 1 simulation(s) due in 1 day, on 2026-11-27").map((s) =>
        s.startsWith("emma") ? s.replace("1 simulation", "2 simulation") : s,
      ),
      "2026-11-27": step("Due today: 1 simulation(s) due today, 2026-11-27").map((s) =>
        s.startsWith("emma") ? s.replace("1 simulation", "2 simulation") : s,
      ),
      "2026-11-30": step("Overdue: 1 simulation(s) 3 days overdue (due 2026-11-27)").map((s) =>
        s.startsWith("emma") ? s.replace("1 simulation", "2 simulation") : s,
      ),
      "2026-12-04": step("Overdue: 1 simulation(s) 7 days overdue (due 2026-11-27)").map((s) =>
        s.startsWith("emma") ? s.replace("1 simulation", "2 simulation") : s,
      ),
      "2026-12-05": [],
    });
  });

  it("names each message's recipient, pairs, step and whether it was sent, in JSON and CSV", async () => {
    clock = createFakeClock(at("2026-11-27"));
    const t = await start();
    const file = await cohort();
    const r = await notify(t, file);
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(rows.map((x) => [x.recipient, x.step, x.pairs, x.status, x.sent])).toEqual([
      ["emma@example.test", 0, "user-emma/sim-004 user-emma/sim-005", "sent", true],
      ["grace@example.test", 0, "user-grace/sim-004", "sent", true],
      ["hugo@example.test", 0, "user-hugo/sim-003", "sent", true],
    ]);
    clock.advance(at("2026-11-30") - clock.now());
    const csv = await t.capture(["progress", "notify", "--from-csv", file, "--plan", "-o", "csv"], { clock });
    expect(csv.exitCode).toBe(12);
    expect(csv.stdout.split(/\r?\n/)[0]).toBe("recipient,kind,step,pairs,status,sent,messageId,detail");
    expect(csv.stdout).toContain("grace@example.test,reminder,-3,user-grace/sim-004,planned,false,");
  });

  it("--plan lists what is due (exit 12), sends and records nothing; with nothing due it exits 0", async () => {
    clock = createFakeClock(at("2026-11-26"));
    const t = await start();
    const file = await cohort();
    const before = smtp.received.length;
    const plan = await t.capture(["progress", "notify", "--from-csv", file, "--plan", "--digest", "managerEmail", "-o", "json"], {
      clock,
    });
    expect(plan.exitCode, plan.stderr).toBe(12);
    expect((JSON.parse(plan.stdout) as Row[]).map((x) => [x.recipient, x.kind, x.status])).toEqual([
      ["emma@example.test", "reminder", "planned"],
      ["grace@example.test", "reminder", "planned"],
      ["hugo@example.test", "reminder", "planned"],
      ["dana@example.test", "digest", "planned"],
      ["sam@example.test", "digest", "planned"],
    ]);
    expect(smtp.received.length).toBe(before);
    const sent = await notify(t, file, "--digest", "managerEmail");
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect(smtp.received.length).toBe(before + 5);
    const none = await t.capture(["progress", "notify", "--from-csv", file, "--plan", "--digest", "managerEmail"], { clock });
    expect(none.exitCode, none.stderr).toBe(0);
  });

  it("sends one digest per manager a day, listing open and overdue pairs with the days overdue", async () => {
    clock = createFakeClock(at("2026-11-29"));
    const t = await start();
    const file = await cohort();
    const before = smtp.received.length;
    const r = await notify(t, file, "--digest", "managerEmail");
    expect(r.exitCode, r.stderr).toBe(0);
    const digests = mailsSince(before).filter((m) => m.parsed.subject?.startsWith("Training digest"));
    expect(digests.map((m) => m.envelopeTo.join()).sort()).toEqual(["dana@example.test", "sam@example.test"]);
    const dana = digests.find((m) => m.envelopeTo[0] === "dana@example.test")!;
    expect(dana.parsed.text).toContain("emma@example.test: sim-004, due 2026-11-27, 2 days overdue");
    expect(dana.parsed.text).toContain("grace@example.test: sim-004, due 2026-11-27, 2 days overdue");
    const sam = digests.find((m) => m.envelopeTo[0] === "sam@example.test")!;
    expect(sam.parsed.text).not.toContain("sim-001"); // completed
    expect(sam.parsed.subject).toBe("Training digest 2026-11-29: 1 open, 1 overdue");

    const again = smtp.received.length;
    expect((await notify(t, file, "--digest", "managerEmail")).exitCode).toBe(0);
    expect(smtp.received.length).toBe(again);
    clock.advance(at("2026-11-30") - clock.now());
    await notify(t, file, "--digest", "managerEmail");
    expect(mailsSince(again).filter((m) => m.parsed.subject?.startsWith("Training digest"))).toHaveLength(2);
  });

  it("a refused recipient is exit 6 naming it; the others are sent; the next run tries it again", async () => {
    clock = createFakeClock(at("2026-11-27"));
    const t = await start();
    const file = await cohort();
    smtp.refuse.add("grace@example.test");
    const r = await notify(t, file);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/refused 1 recipient: grace@example\.test/);
    expect((JSON.parse(r.stdout) as Row[]).map((x) => [x.recipient, x.status])).toEqual([
      ["emma@example.test", "sent"],
      ["grace@example.test", "refused"],
      ["hugo@example.test", "sent"],
    ]);
    smtp.refuse.clear();
    const before = smtp.received.length;
    const retry = await notify(t, file);
    expect(retry.exitCode, retry.stderr).toBe(0);
    expect(mailsSince(before).map((m) => m.envelopeTo.join())).toEqual(["grace@example.test"]);
  });

  it("an unreachable server is exit 8 naming it, without the password; nothing is recorded", async () => {
    clock = createFakeClock(at("2026-11-27"));
    const t = await start();
    const file = await cohort();
    const port = await closedPort();
    const r = await t.capture(["progress", "notify", "--from-csv", file, "--from", FROM], {
      clock,
      env: { SIMADMIN_SMTP_URL: `smtp://relay-user:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${port}` },
    });
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toContain(`smtp://127.0.0.1:${port}`);
    expect(r.stderr + r.stdout).not.toContain(SMTP_PASSWORD);
    expect(r.stderr + r.stdout).not.toContain(encodeURIComponent(SMTP_PASSWORD));
    const plan = await t.capture(["progress", "notify", "--from-csv", file, "--plan"], { clock });
    expect(plan.exitCode).toBe(12);
  });

  it("--outbox writes one .eml per message, recorded like a delivery", async () => {
    clock = createFakeClock(at("2026-11-27"));
    const t = await start();
    const file = await cohort();
    const outbox = join(dir.path, "outbox");
    await mkdir(outbox, { recursive: true });
    const r = await t.capture(["progress", "notify", "--from-csv", file, "--outbox", outbox, "--from", FROM], { clock });
    expect(r.exitCode, r.stderr).toBe(0);
    const files = (await readdir(outbox)).filter((f) => f.endsWith(".eml"));
    expect(files).toHaveLength(3);
    const mails = await Promise.all(
      files.map(async (f) => simpleParser(await readFile(join(outbox, f)), { skipTextToHtml: true })),
    );
    expect(mails.map((m) => (Array.isArray(m.to) ? "" : m.to?.text)).sort()).toEqual([
      "emma@example.test",
      "grace@example.test",
      "hugo@example.test",
    ]);
    expect(mails.every((m) => typeof m.html === "string" && m.text?.includes("sim-00"))).toBe(true);
    // No links URL: no link at all (never a one-hour token link).
    expect(mails.some((m) => /https?:\/\/|token=/.test(`${m.text ?? ""}${typeof m.html === "string" ? m.html : ""}`))).toBe(
      false,
    );
    const again = await t.capture(["progress", "notify", "--from-csv", file, "--outbox", outbox, "--from", FROM], { clock });
    expect(again.exitCode).toBe(0);
    expect((await readdir(outbox)).filter((f) => f.endsWith(".eml"))).toHaveLength(3);
  });

  it("with a links URL each open pair carries a durable link, never a token", async () => {
    clock = createFakeClock(at("2026-11-27"));
    const t = await start();
    const file = await cohort();
    const before = smtp.received.length;
    const r = await t.capture(["progress", "notify", "--from-csv", file, "--smtp", smtp.url, "--from", FROM], {
      clock,
      env: { NODE_EXTRA_CA_CERTS: smtp.caFile, SIMADMIN_LINKS_URL: "https://links.example.test" },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const emma = mailsSince(before).find((m) => m.envelopeTo[0] === "emma@example.test")!;
    const links = emma.parsed.text!.match(/https:\/\/links\.example\.test\/l\/[A-Za-z0-9_-]+/g) ?? [];
    expect(new Set(links).size).toBe(2);
    expect(emma.parsed.html).toContain(`href="${links[0]}"`);
    expect(`${emma.parsed.text}${String(emma.parsed.html)}`).not.toMatch(/token=/);
    expect(t.sandbox.requests.filter((q) => q.path.endsWith("/user/token"))).toEqual([]);
  });

  it("a ledger kept in the settings directory by an older version moves into the state store on first use, with a line", async () => {
    clock = createFakeClock(at("2026-11-27"));
    const t = await start();
    const file = await cohort();
    const before = smtp.received.length;
    const first = await notify(t, file);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(smtp.received.length - before).toBe(3);
    // Make it the older layout (docs/reminders.md "Where the ledger lives"): one file per entry under
    // <settings>/reminders/<sha256(service \n organization) 16 hex>/, and no ledger in the store.
    const stateDir = join(t.configDir, "state");
    const [tenantDir] = await readdir(stateDir);
    const kindFile = join(stateDir, tenantDir!, "reminders.json");
    const stored = JSON.parse(await readFile(kindFile, "utf8")) as {
      tenant: { service: string; organizationId: string };
      entries: Record<string, { value: unknown }>;
    };
    const id = createHash("sha256")
      .update(`${stored.tenant.service}\n${stored.tenant.organizationId}`)
      .digest("hex")
      .slice(0, 16);
    const legacy = join(t.configDir, "reminders", id);
    await mkdir(legacy, { recursive: true });
    for (const [key, { value }] of Object.entries(stored.entries)) {
      await writeFile(join(legacy, `${encodeURIComponent(key)}.json`), JSON.stringify(value));
    }
    await rm(kindFile);

    const moved = await notify(t, file);
    expect(moved.exitCode, moved.stderr).toBe(0);
    expect(moved.stderr).toContain(`moved the reminder ledger (4 entries) from ${legacy} into the state store ${stateDir}`);
    expect(smtp.received.length - before).toBe(3);
    await expect(readdir(join(t.configDir, "reminders"))).rejects.toMatchObject({ code: "ENOENT" });
    const again = await notify(t, file);
    expect(again.stderr).not.toContain("moved the reminder ledger");
    const shown = await t.capture(["state", "show", "-o", "json"], { clock });
    expect((JSON.parse(shown.stdout) as { kind: string; entries: number }[]).map((k) => [k.kind, k.entries])).toContainEqual([
      "reminders",
      4, // emma's two pairs, grace's and hugo's: one entry per (pair, step)
    ]);
  });

  it("two runs at once on one machine send each step once between them", async () => {
    clock = createFakeClock(at("2026-11-27"));
    const t = await start();
    const file = await cohort();
    const before = smtp.received.length;
    // The default pacing (300 a minute): each run's sends spread out, so the two interleave.
    const both = ["--digest", "managerEmail", "--rate", "300"];
    const [a, b] = await Promise.all([notify(t, file, ...both), notify(t, file, ...both)]);
    expect(a.exitCode, a.stderr).toBe(0);
    expect(b.exitCode, b.stderr).toBe(0);
    expect(
      mailsSince(before)
        .map((m) => m.envelopeTo[0])
        .sort(),
    ).toEqual(["dana@example.test", "emma@example.test", "grace@example.test", "hugo@example.test", "sam@example.test"]);
  });

  it("--template fills {{placeholders}}, escaping every value placed in the HTML part", async () => {
    clock = createFakeClock(at("2026-11-27"));
    const t = await start();
    const hostile = "<script>window.pwned=1</script> Smith & Sons \u202Ekcah";
    const file = await cohort(() => hostile);
    const templates = join(dir.path, "templates");
    await mkdir(templates, { recursive: true });
    await writeFile(join(templates, "subject.txt"), "{{firstName}}: {{count}} to do by {{dueDate}}\n");
    await writeFile(join(templates, "body.txt"), "Hello {{firstName}},\n\n{{pairs}}\n");
    await writeFile(join(templates, "body.html"), '<html><body><p id="hi">Hello {{firstName}},</p>{{pairs}}</body></html>\n');
    const before = smtp.received.length;
    const r = await notify(t, file, "--template", templates);
    expect(r.exitCode, r.stderr).toBe(0);
    const grace = mailsSince(before).find((m) => m.envelopeTo[0] === "grace@example.test")!;
    expect(grace.parsed.text).toContain(`Hello ${hostile},`);
    expect(grace.parsed.html).toContain("Hello &lt;script&gt;window.pwned=1&lt;/script&gt; Smith &amp; Sons &#x202E;kcah,");
    expect(grace.parsed.html).not.toContain("<script>");

    await writeFile(join(templates, "body.txt"), "Hello {{frist_name}}\n");
    const typo = await notify(t, file, "--template", templates);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toMatch(/body\.txt uses \{\{frist_name\}\}/);
  });

  it("an email column is required, and every address is checked before anything is asked", async () => {
    clock = createFakeClock(at("2026-11-27"));
    const t = await start();
    const file = join(dir.path, "bad.csv");
    await writeFile(file, "userId,simulationId,dueDate,email\nuser-emma,sim-004,2026-11-27,not-an-address\n");
    const r = await notify(t, file);
    expect(r.exitCode).toBe(6);
    expect(r.stdout).toContain("not a valid email address");
    expect(r.sent).toEqual([]);
  });
});
