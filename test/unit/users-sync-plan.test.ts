import { describe, expect, it } from "vitest";
import {
  applyToBaseline,
  type Baseline,
  DEFAULT_MAX_DEACTIVATE,
  deactivateAllowance,
  guardProblem,
  type GuardLimit,
  parseDeactivateLimit,
  planSync,
  type SyncPlan,
} from "../../src/domain/users-sync/sync-plan.js";
import { readRoster, parseMapping } from "../../src/domain/users-sync/roster.js";
import { keyOf } from "../../src/domain/users-sync/user-key.js";
import type { RosterUser } from "../../src/domain/users-sync/roster.js";

/** The guards with no 7-day history and a --max-changes that allows anything (the deactivation rules alone). */
function guard3(plan: SyncPlan, roster: { users: number; invalid: number }, deactivate: GuardLimit) {
  return guardProblem(plan, {
    roster,
    deactivate,
    changes: { value: { kind: "percent", value: 100 }, explicit: true },
    recentDeactivations: 0,
    baselineUsers: Object.keys(plan.rows).length + 1000,
  });
}

const user = (n: number, extra: Partial<RosterUser> = {}): RosterUser => ({
  row: n + 1,
  firstName: `F${n}`,
  lastName: `L${n}`,
  email: `u${n}@example.com`,
  teamName: "T",
  status: "ACTIVE",
  ...extra,
});

function baselineOf(users: RosterUser[]): Baseline {
  return {
    version: 1,
    baseUrl: "https://api.example.com",
    organizationId: "org",
    createdAt: "2026-11-01T00:00:00Z",
    updatedAt: "2026-11-01T00:00:00Z",
    users: Object.fromEntries(
      users.map((u) => [
        u.email.toLowerCase(),
        { email: u.email, firstName: u.firstName, lastName: u.lastName, teamName: u.teamName, status: u.status },
      ]),
    ),
  };
}

describe("planSync", () => {
  it("a first run Adds everyone, or Updates them with --assume-existing", () => {
    expect(planSync([user(1), user(2)], undefined).rows.map((r) => [r.change, r.action])).toEqual([
      ["add", "Add"],
      ["add", "Add"],
    ]);
    expect(planSync([user(1)], undefined, { assumeExisting: true }).rows.map((r) => r.action)).toEqual(["Update"]);
  });

  it("plans a mover, a leaver (baseline values, INACTIVE) and a returner; matches emails ignoring case", () => {
    const base = baselineOf([user(1), user(2), user(3), user(4, { status: "INACTIVE" })]);
    const plan = planSync([user(1, { email: "U1@example.com" }), user(2, { teamName: "New" }), user(4)], base);
    expect(plan.rows.map((r) => [r.change, r.email, r.status, r.changed.join(",")])).toEqual([
      ["update", "U1@example.com", "ACTIVE", "email"],
      ["update", "u2@example.com", "ACTIVE", "teamName"],
      ["reactivate", "u4@example.com", "ACTIVE", "status"],
      ["deactivate", "u3@example.com", "INACTIVE", "status"],
    ]);
    expect(plan.rows[3]).toMatchObject({ firstName: "F3", teamName: "T", rosterRow: null, action: "Update" });
    expect(plan.baselineActive).toBe(3);
  });

  it("leaves alone a user whose roster row was invalid", () => {
    const base = baselineOf([user(1), user(2)]);
    expect(planSync([user(1)], base, { leaveAlone: new Set(["u2@example.com"]) }).rows).toEqual([]);
  });
});

describe("guards", () => {
  const base = baselineOf(Array.from({ length: 20 }, (_, i) => user(i + 1)));
  const roster = (n: number): RosterUser[] => Array.from({ length: n }, (_, i) => user(i + 1));
  it.each([
    [18, undefined, undefined],
    [17, undefined, "more than the 2 allowed"],
    [9, undefined, "under half of the 20 active users"],
    [9, "11", undefined],
    [17, "15%", undefined],
    [0, "100%", "no users"],
  ])("roster of %i with --max-deactivate %s → %s", (kept, flag, problem) => {
    const plan = planSync(roster(kept), base);
    const limit = flag === undefined ? DEFAULT_MAX_DEACTIVATE : parseDeactivateLimit(flag)!;
    const found = guard3(plan, { users: kept, invalid: 0 }, { value: limit, explicit: flag !== undefined });
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found?.message).toContain(problem);
  });

  it.each([
    ["10%", 20, 2],
    ["10%", 5, 1],
    ["0", 20, 0],
    ["3", 20, 3],
  ])("--max-deactivate %s of %i active users allows %i", (flag, active, allowed) => {
    expect(deactivateAllowance(parseDeactivateLimit(flag)!, active)).toBe(allowed);
  });

  it.each(["", "x", "1.5", "101%", "-1"])("refuses --max-deactivate %j", (flag) => {
    expect(parseDeactivateLimit(flag)).toBeUndefined();
  });
});

describe("readRoster", () => {
  it("maps other header names and fills what a roster may leave out", () => {
    const roster = readRoster(
      {
        header: { row: 1, cells: ["Given", "Family", "Mail", "Team", "firstName"] },
        rows: [
          { row: 2, cells: ["Ana", "Diaz", "ana@example.com", "Sales", "ignored"] },
          { row: 3, cells: ["", "", "", "", ""] },
          { row: 4, cells: ["Bo", "", "bo@example.com", "", ""] },
        ],
        info: {},
      },
      [
        parseMapping("firstName=Given"),
        parseMapping("lastName=family"),
        parseMapping("email=Mail"),
        parseMapping("teamName=Team"),
      ],
    );
    expect(roster.users).toEqual([
      { row: 2, firstName: "Ana", lastName: "Diaz", email: "ana@example.com", teamName: "Sales", status: "ACTIVE" },
    ]);
    expect(roster.invalid.map((r) => r.problems)).toEqual([[{ row: 4, field: "lastName", message: "required but empty" }]]);
    expect([...roster.invalidEmails]).toEqual(["bo@example.com"]);
    expect(roster.warnings.join("\n")).toContain("--map firstName=");
  });
});

describe("planSync, every change and count (issue 27 item 3)", () => {
  it("counts each change and the unchanged users; lists the fields that changed", () => {
    const base = baselineOf([user(1), user(2), user(3), user(4, { status: "INACTIVE" }), user(5, { status: "INACTIVE" })]);
    const plan = planSync(
      [
        user(1),
        user(2, { firstName: "New", lastName: "Name" }),
        user(3, { status: "INACTIVE" }),
        user(4),
        user(6),
        user(7, { status: "INACTIVE" }),
      ],
      base,
    );
    expect(plan.counts).toEqual({ add: 2, update: 1, deactivate: 1, reactivate: 1, unchanged: 1 });
    expect(plan.rows).toEqual([
      {
        email: "u2@example.com",
        firstName: "New",
        lastName: "Name",
        teamName: "T",
        status: "ACTIVE",
        change: "update",
        action: "Update",
        rosterRow: 3,
        changed: ["firstName", "lastName"],
      },
      {
        email: "u3@example.com",
        firstName: "F3",
        lastName: "L3",
        teamName: "T",
        status: "INACTIVE",
        change: "deactivate",
        action: "Update",
        rosterRow: 4,
        changed: ["status"],
      },
      {
        email: "u4@example.com",
        firstName: "F4",
        lastName: "L4",
        teamName: "T",
        status: "ACTIVE",
        change: "reactivate",
        action: "Update",
        rosterRow: 5,
        changed: ["status"],
      },
      {
        email: "u6@example.com",
        firstName: "F6",
        lastName: "L6",
        teamName: "T",
        status: "ACTIVE",
        change: "add",
        action: "Add",
        rosterRow: 7,
        changed: [],
      },
      {
        email: "u7@example.com",
        firstName: "F7",
        lastName: "L7",
        teamName: "T",
        status: "INACTIVE",
        change: "add",
        action: "Add",
        rosterRow: 8,
        changed: [],
      },
    ]);
    // An INACTIVE user gone from the roster stays as it is; the baseline's ACTIVE users are 3.
    expect(plan.baselineActive).toBe(3);
    expect(plan.firstRun).toBe(false);
  });

  it("a first run is one; --assume-existing counts its rows as updates", () => {
    const plan = planSync([user(1), user(2)], undefined, { assumeExisting: true });
    expect(plan.counts).toEqual({ add: 0, update: 2, deactivate: 0, reactivate: 0, unchanged: 0 });
    expect(plan.firstRun).toBe(true);
    expect(plan.baselineActive).toBe(0);
  });

  it("--assume-existing does not change a later run: a new user is added", () => {
    const plan = planSync([user(1), user(2)], baselineOf([user(1)]), { assumeExisting: true });
    expect(plan.rows.map((r) => [r.email, r.change, r.action])).toEqual([["u2@example.com", "add", "Add"]]);
  });

  it("a leaver is deactivated with the baseline's values and the changed field status", () => {
    const base = baselineOf([user(1, { firstName: "Old", teamName: "Ops" })]);
    expect(planSync([], base).rows).toEqual([
      {
        email: "u1@example.com",
        firstName: "Old",
        lastName: "L1",
        teamName: "Ops",
        status: "INACTIVE",
        change: "deactivate",
        action: "Update",
        rosterRow: null,
        changed: ["status"],
      },
    ]);
  });
});

describe("guardProblem, the exact lines (issue 27 item 3)", () => {
  const base = baselineOf(Array.from({ length: 20 }, (_, i) => user(i + 1)));
  const roster = (n: number): RosterUser[] => Array.from({ length: n }, (_, i) => user(i + 1));
  const implicit = { value: DEFAULT_MAX_DEACTIVATE, explicit: false };

  it("an empty roster, even with invalid rows counted as none", () => {
    expect(guard3(planSync([], base), { users: 0, invalid: 0 }, implicit)).toEqual({
      message: "the roster lists no users; nothing was sent",
      hint: "an empty HR export is never a reason to deactivate everyone; check the export",
    });
  });

  it("a roster under half of the baseline, counting its invalid rows", () => {
    expect(guard3(planSync(roster(9), base), { users: 9, invalid: 0 }, implicit)).toEqual({
      message:
        "the roster lists 9 users, under half of the 20 active users of the last sync; it looks truncated; nothing was sent",
      hint: "check the HR export; if so many users really left, pass --max-deactivate 11",
    });
    expect(guard3(planSync(roster(1), base), { users: 1, invalid: 0 }, implicit)?.message).toBe(
      "the roster lists 1 user, under half of the 20 active users of the last sync; it looks truncated; nothing was sent",
    );
    // Exactly half is not under half; it is the deactivation limit that stops this one.
    expect(guard3(planSync(roster(9), base), { users: 9, invalid: 1 }, implicit)?.message).toBe(
      "the plan deactivates 11 users, more than the 2 allowed (10% of 20 active users, the default); nothing was sent",
    );
  });

  it("more deactivations than allowed, by default, by a percentage or by a count", () => {
    const plan = planSync(roster(17), base);
    expect(guard3(plan, { users: 17, invalid: 0 }, implicit)).toEqual({
      message: "the plan deactivates 3 users, more than the 2 allowed (10% of 20 active users, the default); nothing was sent",
      hint: "check the roster; if these leavers are real, pass --max-deactivate 3",
    });
    expect(guard3(plan, { users: 17, invalid: 0 }, { value: { kind: "percent", value: 5 }, explicit: true })?.message).toBe(
      "the plan deactivates 3 users, more than the 1 allowed (5% of 20 active users); nothing was sent",
    );
    expect(guard3(plan, { users: 17, invalid: 0 }, { value: { kind: "count", value: 2 }, explicit: true })?.message).toBe(
      "the plan deactivates 3 users, more than the 2 allowed (--max-deactivate); nothing was sent",
    );
    expect(guard3(plan, { users: 17, invalid: 0 }, { value: { kind: "count", value: 3 }, explicit: true })).toBeUndefined();
  });

  it("an explicit --max-deactivate replaces the half-roster guard", () => {
    const plan = planSync(roster(5), base);
    expect(guard3(plan, { users: 5, invalid: 0 }, { value: { kind: "count", value: 15 }, explicit: true })).toBeUndefined();
  });

  it("a first run (no active users to measure against) is not under half of anything", () => {
    expect(guard3(planSync(roster(1), undefined), { users: 1, invalid: 0 }, implicit)).toBeUndefined();
  });
});

describe("parseDeactivateLimit and applyToBaseline (issue 27 item 3)", () => {
  it.each<[string, unknown]>([
    ["5", { kind: "count", value: 5 }],
    [" 12 ", { kind: "count", value: 12 }],
    ["0", { kind: "count", value: 0 }],
    ["10%", { kind: "percent", value: 10 }],
    [" 2.5 % ", { kind: "percent", value: 2.5 }],
    ["100%", { kind: "percent", value: 100 }],
    ["0%", { kind: "percent", value: 0 }],
    ["100.5%", undefined],
    ["5 5", undefined],
    ["x5", undefined],
    ["5x", undefined],
    ["%", undefined],
    ["5.%", undefined],
  ])("reads %j as %j", (text, limit) => {
    expect(parseDeactivateLimit(text)).toEqual(limit);
  });

  it("a percentage of the active users is rounded up", () => {
    expect(deactivateAllowance({ kind: "percent", value: 10 }, 21)).toBe(3);
    expect(deactivateAllowance({ kind: "percent", value: 10 }, 0)).toBe(0);
    expect(deactivateAllowance({ kind: "count", value: 7 }, 1000)).toBe(7);
  });

  it("the baseline after a sync: the sent values under the lower-cased email, the time updated, the rest kept", () => {
    const base = baselineOf([user(1), user(2)]);
    const next = applyToBaseline(
      base,
      [{ email: "U2@Example.com", firstName: "B", lastName: "C", teamName: "Ops", status: "INACTIVE" }],
      "2026-11-24T10:00:00Z",
    );
    expect(next).toEqual({
      version: 1,
      baseUrl: "https://api.example.com",
      organizationId: "org",
      createdAt: "2026-11-01T00:00:00Z",
      updatedAt: "2026-11-24T10:00:00Z",
      users: {
        "u1@example.com": { email: "u1@example.com", firstName: "F1", lastName: "L1", teamName: "T", status: "ACTIVE" },
        "u2@example.com": { email: "U2@Example.com", firstName: "B", lastName: "C", teamName: "Ops", status: "INACTIVE" },
      },
    });
    // The baseline given is not changed.
    expect(base.users["u2@example.com"]?.firstName).toBe("F2");
  });
});

describe("users-sync plan: the last survivors (issue 27 item 3)", () => {
  it("an INACTIVE user still INACTIVE with a new name is an update, neither reactivated nor deactivated", () => {
    const plan = planSync([user(1, { status: "INACTIVE", lastName: "New" })], baselineOf([user(1, { status: "INACTIVE" })]));
    expect(plan.rows.map((r) => [r.change, r.action, r.changed])).toEqual([["update", "Update", ["lastName"]]]);
    expect(plan.counts).toEqual({ add: 0, update: 1, deactivate: 0, reactivate: 0, unchanged: 0 });
  });

  it("--max-deactivate takes a percentage with several decimals", () => {
    expect(parseDeactivateLimit("2.55%")).toEqual({ kind: "percent", value: 2.55 });
  });
});

describe("guardProblem: --max-changes and deactivations over 7 days", () => {
  const base = baselineOf(Array.from({ length: 40 }, (_, i) => user(i + 1)));
  const implicit = { value: DEFAULT_MAX_DEACTIVATE, explicit: false };
  const tenPercent = { value: { kind: "percent" as const, value: 10 }, explicit: false };
  const context = (plan: SyncPlan, extra: { recent?: number; changes?: GuardLimit } = {}) => ({
    roster: { users: 40, invalid: 0 },
    deactivate: implicit,
    changes: extra.changes ?? tenPercent,
    recentDeactivations: extra.recent ?? 0,
    baselineUsers: 40,
  });

  it("a swapped column that changes every user stops before sending, naming the numbers", () => {
    // firstName and lastName swapped (--map the wrong way round): 40 of 40 Updates.
    const swapped = Array.from({ length: 40 }, (_, i) => user(i + 1, { firstName: `L${i + 1}`, lastName: `F${i + 1}` }));
    const plan = planSync(swapped, base);
    expect(guardProblem(plan, context(plan))).toEqual({
      message:
        "the plan updates 40 users, more than the 4 allowed (10% of 40 users in the baseline, the default); nothing was sent",
      hint: "check the roster and any --map (a swapped column changes every user); if these changes are real, pass --max-changes 40",
    });
    expect(
      guardProblem(plan, context(plan, { changes: { value: { kind: "count", value: 40 }, explicit: true } })),
    ).toBeUndefined();
    expect(
      guardProblem(plan, context(plan, { changes: { value: { kind: "count", value: 39 }, explicit: true } }))?.message,
    ).toContain("more than the 39 allowed (--max-changes)");
  });

  it("4 Updates of 40 pass the default; 5 do not; returners count, deactivations do not", () => {
    const moved = (n: number) => Array.from({ length: 40 }, (_, i) => user(i + 1, i < n ? { teamName: "Moved" } : {}));
    expect(guardProblem(planSync(moved(4), base), context(planSync(moved(4), base)))).toBeUndefined();
    expect(guardProblem(planSync(moved(5), base), context(planSync(moved(5), base)))?.message).toContain(
      "the plan updates 5 users, more than the 4 allowed",
    );
    const withReturners = baselineOf(Array.from({ length: 40 }, (_, i) => user(i + 1, i < 5 ? { status: "INACTIVE" } : {})));
    const back = planSync(
      Array.from({ length: 40 }, (_, i) => user(i + 1)),
      withReturners,
    );
    expect(back.counts.reactivate).toBe(5);
    expect(guardProblem(back, context(back))?.message).toContain("the plan updates 5 users");
  });

  it("a first run checks --max-changes only when it is given", () => {
    const plan = planSync(
      Array.from({ length: 10 }, (_, i) => user(i + 1)),
      undefined,
      { assumeExisting: true },
    );
    expect(guardProblem(plan, { ...context(plan), baselineUsers: 0 })).toBeUndefined();
    expect(
      guardProblem(plan, { ...context(plan), baselineUsers: 0, changes: { value: { kind: "count", value: 3 }, explicit: true } })
        ?.message,
    ).toContain("the plan updates 10 users, more than the 3 allowed (--max-changes)");
  });

  it("counts the deactivations of the last 7 days against the users active before them", () => {
    // 36 active now, 4 deactivated this week: 10% of 40 allows 4 in 7 days, so one more is too many.
    const now = baselineOf(Array.from({ length: 36 }, (_, i) => user(i + 1)));
    const plan = planSync(
      Array.from({ length: 35 }, (_, i) => user(i + 1)),
      now,
    );
    expect(plan.counts.deactivate).toBe(1);
    expect(guardProblem(plan, { ...context(plan, { recent: 4 }), roster: { users: 35, invalid: 0 } })).toEqual({
      message:
        "the plan deactivates 1 users and the syncs of the last 7 days deactivated 4: 5, more than the 4 allowed in 7 days (10% of the 40 users active before them, the default); nothing was sent",
      hint: "check the roster; if these leavers are real, pass --max-deactivate 5",
    });
    expect(guardProblem(plan, { ...context(plan, { recent: 3 }), roster: { users: 35, invalid: 0 } })).toBeUndefined();
    // A plan that deactivates nobody is never stopped by the week's count.
    const none = planSync(
      Array.from({ length: 36 }, (_, i) => user(i + 1)),
      now,
    );
    expect(guardProblem(none, { ...context(none, { recent: 30 }), roster: { users: 36, invalid: 0 } })).toBeUndefined();
  });
});

describe("keyOf and the roster: one address written two ways is one user", () => {
  it.each([
    ["NFC and NFD", "jos\u00e9@example.com", "jose\u0301@example.com"],
    ["a zero-width space", "ana@example.com", "an\u200ba@example.com"],
    ["case", "Ana@Example.com", "ana@example.com"],
  ])("%s: the same key", (_what, a, b) => {
    expect(keyOf(a)).toBe(keyOf(b));
  });

  it("a second row with the same address written differently is a row error, and one with an invisible character too", () => {
    const table = {
      header: { row: 1, cells: ["firstName", "lastName", "email"] },
      rows: [
        { row: 2, cells: ["José", "A", "jos\u00e9@example.com"] },
        { row: 3, cells: ["José", "B", "jose\u0301@example.com"] },
        { row: 4, cells: ["Ana", "C", "an\u200ba@example.com"] },
        { row: 5, cells: ["Ana", "D", "ana@example.com"] },
        { row: 6, cells: ["Ana", "E", "ana\u200d@example.com"] },
      ],
      info: {},
    } as unknown as Parameters<typeof readRoster>[0];
    const roster = readRoster(table);
    expect(roster.users.map((u) => u.email)).toEqual(["jos\u00e9@example.com", "ana@example.com"]);
    expect(roster.invalid.map((r) => [r.row, r.problems.map((p) => p.message).join("; ")])).toEqual([
      // Written in NFC, row 3 is row 2's address exactly: the users CSV's duplicate rule.
      [3, "duplicate of row 2: each email may appear once (compared ignoring case)"],
      [4, "contains an invisible character (U+200B); the address would name another user"],
      [6, "contains an invisible character (U+200D); the address would name another user"],
    ]);
    // Both stay out of the plan: neither updated nor deactivated.
    expect([...roster.invalidEmails].sort()).toEqual([keyOf("ana@example.com"), keyOf("jos\u00e9@example.com")].sort());
  });

  it("an NFD address in the roster is sent in NFC and matches the NFC user of the baseline", () => {
    const table = {
      header: { row: 1, cells: ["firstName", "lastName", "email"] },
      rows: [{ row: 2, cells: ["F1", "L1", "jose\u0301@example.com"] }],
      info: {},
    } as unknown as Parameters<typeof readRoster>[0];
    const roster = readRoster(table);
    expect(roster.users[0]?.email).toBe("jos\u00e9@example.com");
    const plan = planSync(roster.users, baselineOf([user(1, { email: "jos\u00e9@example.com", teamName: "" })]));
    expect(plan.counts).toMatchObject({ unchanged: 1, add: 0, update: 0 });
  });
});
