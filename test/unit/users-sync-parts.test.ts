import { describe, expect, it } from "vitest";
import { followUp } from "../../src/commands/users-sync/follow-up.js";
import { describeHeld, heldError, heldLines } from "../../src/commands/users-sync/held.js";
import { SyncJournal } from "../../src/commands/users-sync/journal.js";
import type { UsersSyncOptions } from "../../src/commands/users-sync/options.js";
import { summaryLine } from "../../src/commands/users-sync/plan-output.js";
import { SyncState } from "../../src/commands/users-sync/sync-state.js";
import type { CommandContext } from "../../src/context.js";
import type { ManifestBatch } from "../../src/domain/users-csv/import-manifest.js";
import type { Baseline, SyncPlan } from "../../src/domain/users-sync/sync-plan.js";
import type { HeldBatch, PlannedRow, SyncRun } from "../../src/domain/users-sync/records.js";
import { ServiceError, UsageError } from "../../src/errors.js";
import { memoryStateStore } from "../helpers/memory-state.js";

// Parts of `users sync` called as libraries (docs/users-sync.md): what a held batch is called
// and how to get out of it, the command a hint pastes back, the plan's summary line, and the
// journal the import engine writes into the state store. Every line is written out.

const TENANT = { service: "https://sim.example.com", organizationId: "org-1" };

const row = (n: number): PlannedRow => ({
  email: `p${n}@example.com`,
  firstName: `F${n}`,
  lastName: `L${n}`,
  teamName: "Sales",
  status: "ACTIVE",
  change: "add",
  action: "Add",
  rosterRow: n + 1,
  changed: [],
});

const batch = (extra: Partial<ManifestBatch> = {}): ManifestBatch => ({
  number: 2,
  rows: 4,
  firstRow: 752,
  lastRow: 755,
  sha256: "0".repeat(64),
  state: "ambiguous",
  sends: 1,
  ...extra,
});

const held = (number: number, rows: number, extra: Partial<ManifestBatch> = {}): HeldBatch => ({
  number,
  plannedAt: "2026-11-20T02:00:00.000Z",
  rows: Array.from({ length: rows }, (_, i) => row(i + 1)),
  batch: batch(extra),
});

describe("held batches in the sync's words", () => {
  it("names a batch by number, size, plan and its first three users", () => {
    expect(describeHeld(held(2, 4))).toBe(
      "held batch 2 (4 users of the plan of 2026-11-20T02:00:00.000Z: p1@example.com, p2@example.com, p3@example.com, …)",
    );
    expect(describeHeld(held(3, 3))).toBe(
      "held batch 3 (3 users of the plan of 2026-11-20T02:00:00.000Z: p1@example.com, p2@example.com, p3@example.com)",
    );
    expect(describeHeld(held(1, 1))).toBe("held batch 1 (1 user of the plan of 2026-11-20T02:00:00.000Z: p1@example.com)");
  });

  it("one held batch: exit 8 (answer unknown, nothing sent), why it is held, and this sync's two ways out", () => {
    const error = heldError([held(2, 1, { error: "socket hang up" })], "simadmin users sync hr.csv");
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.delivery).toBe("not-sent");
    expect(error.message).toBe(
      "held batch 2 (1 user of the plan of 2026-11-20T02:00:00.000Z: p1@example.com): its upload may have been received (cut off or killed after the body was sent: socket hang up); not sent again",
    );
    expect(error.hint).toBe(
      "check in the app whether its users exist with those values; if they do, `simadmin users sync hr.csv --mark-imported 2` records it as synced without sending; if they do not, `simadmin users sync hr.csv --resend-ambiguous` sends it again (an Add refused as existing is then taken as done)",
    );
  });

  it("several, one of them disputed: each with its reason, the tasks to look up, 'them'", () => {
    const error = heldError(
      [held(1, 1), held(3, 1, { state: "uploaded", taskId: "t-9", disputed: "the answer counts 2 valid users of 1" })],
      "simadmin users sync hr.csv",
    );
    expect(error.message).toBe(
      "held batch 1 (1 user of the plan of 2026-11-20T02:00:00.000Z: p1@example.com): its upload may have been received (cut off or killed after the body was sent); " +
        "held batch 3 (1 user of the plan of 2026-11-20T02:00:00.000Z: p1@example.com): task t-9: the answer counts 2 valid users of 1, so which of its rows were imported is not known; not sent again",
    );
    expect(error.hint).toBe(
      "check in the app whether their users exist with those values (`simadmin import-status --task t-9`); if they do, `simadmin users sync hr.csv --mark-imported 1,3` records them as synced without sending; if they do not, `simadmin users sync hr.csv --resend-ambiguous` sends them again (an Add refused as existing is then taken as done)",
    );
  });

  it("two batches with tasks: the hint's import-status command asks for both", () => {
    const error = heldError(
      [
        held(1, 1, { state: "uploaded", taskId: "t-9", disputed: "x" }),
        held(2, 1, { state: "uploaded", taskId: "t-10", disputed: "y" }),
      ],
      "simadmin users sync hr.csv",
    );
    expect(error.hint).toContain("(`simadmin import-status --task t-9 --task t-10`)");
  });

  it("the lines of batches left held name their rows in that plan", () => {
    expect(heldLines([held(2, 1), held(4, 1, { firstRow: 9, lastRow: 9 })])).toEqual([
      "held batch 2 (1 user of the plan of 2026-11-20T02:00:00.000Z: p1@example.com) is held: its upload may have been received (cut off or killed after the body was sent); its users are left as they are (rows 752–755 of that plan)",
      "held batch 4 (1 user of the plan of 2026-11-20T02:00:00.000Z: p1@example.com) is held: its upload may have been received (cut off or killed after the body was sent); its users are left as they are (row 9 of that plan)",
    ]);
  });
});

describe("the command a hint pastes back", () => {
  const ctx = (globals: Record<string, unknown>) => ({ services: { globals } }) as unknown as CommandContext;
  const none = {} as UsersSyncOptions;

  it("is the roster alone when nothing else was given", () => {
    expect(followUp(ctx({}), none, "hr.csv")).toBe("simadmin users sync hr.csv");
  });

  it("keeps the global flags that choose the service and every flag that changes the plan, quoted for the shell", () => {
    const options = {
      map: [
        ["firstName", "First Name"],
        ["email", "Mail"],
      ],
      encoding: "latin1",
      maxDeactivate: { kind: "percent", value: 20 },
      maxChanges: { kind: "count", value: 40 },
      skipInvalid: true,
      assumeExisting: true,
      yes: true,
    } as unknown as UsersSyncOptions;
    const globals = {
      profile: "night",
      sandbox: true,
      baseUrl: "https://sim.example.com",
      org: "org 1",
      apiVersion: "2",
      timeout: "30",
      retries: "3",
    };
    expect(followUp(ctx(globals), options, "exports/hr file.csv")).toBe(
      "simadmin --profile night --sandbox --base-url https://sim.example.com --org 'org 1' --api-version 2 --timeout 30 --retries 3 users sync 'exports/hr file.csv' --map 'firstName=First Name' --map email=Mail --encoding latin1 --max-deactivate 20% --max-changes 40 --skip-invalid --assume-existing --yes",
    );
  });

  it("the other forms of the limits, a path that starts with a dash, --sandbox false", () => {
    const options = {
      maxDeactivate: { kind: "count", value: 3 },
      maxChanges: { kind: "percent", value: 5 },
      skipInvalid: false,
      assumeExisting: false,
      yes: false,
    } as unknown as UsersSyncOptions;
    expect(followUp(ctx({ sandbox: false }), options, "-hr.csv")).toBe(
      "simadmin users sync ./-hr.csv --max-deactivate 3 --max-changes 5%",
    );
  });
});

describe("the plan's summary line", () => {
  const plan = {
    counts: { add: 1, update: 2, deactivate: 1234, reactivate: 0, unchanged: 5 },
    baselineActive: 1500,
  } as unknown as SyncPlan;
  const baseline = {
    updatedAt: "2026-11-27T02:00:00.000Z",
    users: { a: {}, b: {}, c: {} },
  } as unknown as Baseline;

  it("counts each change against the baseline", () => {
    expect(summaryLine(plan, "org-1", baseline)).toBe(
      "plan for organization org-1: 1 Add, 2 Updates, 1,234 to INACTIVE, 0 ACTIVE again, 5 unchanged (baseline of 2026-11-27T02:00:00.000Z: 3 users, 1,500 active)",
    );
  });

  it("a first sync says which run establishes the baseline", () => {
    expect(summaryLine(plan, "org-1", undefined)).toMatch(
      /\(first sync: no baseline yet for this service and organization; this run establishes it\)$/,
    );
    expect(summaryLine(plan, "org-1", undefined, true)).toMatch(
      /\(first sync: no baseline yet for this service and organization; the first run without --plan establishes it\)$/,
    );
  });
});

describe("the sync's journal and state", () => {
  const run = (): SyncRun => ({
    version: 1,
    createdAt: "2026-11-28T02:00:00.000Z",
    rows: [row(1), row(2)],
    batches: [batch({ number: 1, state: "pending", sends: 0 }), batch({ number: 2, state: "pending", sends: 0 })],
    uncertain: {},
  });

  it("each update is one put of the run entry; the batch comes back as written", async () => {
    const store = memoryStateStore();
    const state = new SyncState(store, TENANT);
    expect(await state.isEmpty()).toBe(true);
    const journal = new SyncJournal(state, run());
    await journal.reserve();
    const written = await journal.update(2, { state: "uploading", sends: 1 });
    await journal.dropReservation();
    expect(written).toEqual(batch({ number: 2, state: "uploading", sends: 1 }));
    expect(journal.batches.map((b) => b.state)).toEqual(["pending", "uploading"]);
    expect(await state.isEmpty()).toBe(false);
    const snapshot = await state.load();
    expect(snapshot.run?.batches.map((b) => `${b.number} ${b.state} ${b.sends}`)).toEqual(["1 pending 0", "2 uploading 1"]);
    expect(snapshot).toMatchObject({ baseline: undefined, held: [], tasks: [], unsent: undefined, deactivations: {} });
    expect(() => journal.batch(3)).toThrow(new RangeError("the sync's run has no batch 3"));
  });

  it("every entry written comes back as it was put; entries a store gives back as null read as absent", async () => {
    const store = memoryStateStore();
    const state = new SyncState(store, TENANT);
    const baseline: Baseline = {
      version: 1,
      baseUrl: TENANT.service,
      organizationId: TENANT.organizationId,
      createdAt: "2026-11-20T02:00:00.000Z",
      updatedAt: "2026-11-27T02:00:00.000Z",
      users: {},
    };
    const changes = {
      baseline,
      run: run(),
      held: [held(2, 1)],
      tasks: [{ taskId: "t-4", plannedAt: "2026-11-27T02:00:00.000Z", rows: [row(3)] }],
      unsent: { createdAt: "2026-11-27T02:00:00.000Z", rows: [row(4)] },
      deactivations: { "p9@example.com": "2026-11-26T02:00:00.000Z" },
    };
    await state.put(changes);
    expect(await state.load()).toEqual(changes);
    const nulls = memoryStateStore();
    nulls.list = async () =>
      new Map<string, unknown>([
        ["baseline", null],
        ["run", null],
        ["held", null],
        ["tasks", null],
        ["unsent", null],
        ["deactivations", null],
      ]);
    expect(await new SyncState(nulls, TENANT).load()).toEqual({
      baseline: undefined,
      run: undefined,
      held: [],
      tasks: [],
      unsent: undefined,
      deactivations: {},
    });
  });

  it("a write that fails leaves the journal as it was", async () => {
    const store = memoryStateStore();
    store.put = () => Promise.reject(new Error("store down"));
    const journal = new SyncJournal(new SyncState(store, TENANT), run());
    await expect(journal.update(1, { state: "uploading" })).rejects.toThrow("store down");
    expect(journal.batch(1).state).toBe("pending");
  });

  it("an entry this version cannot read stops the sync before anything is sent, naming the store and the entry", async () => {
    const store = memoryStateStore();
    await store.put(TENANT, "users-sync", { held: [{ number: "two" }], deactivations: null });
    const error = await new SyncState(store, TENANT).load().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(
      "the users sync state in memory (held) is not one simadmin can read; nothing was sent",
    );
    expect((error as UsageError).hint).toBe(
      "a newer simadmin may have written it: use that version, or restore the store from a backup",
    );
  });
});
