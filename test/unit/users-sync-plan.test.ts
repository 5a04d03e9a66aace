import { describe, expect, it } from "vitest";
import {
  type Baseline,
  DEFAULT_MAX_DEACTIVATE,
  deactivateAllowance,
  guardProblem,
  parseDeactivateLimit,
  planSync,
} from "../../src/domain/users-sync/plan.js";
import { readRoster, parseMapping } from "../../src/domain/users-sync/roster.js";
import type { RosterUser } from "../../src/domain/users-sync/roster.js";

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
    const found = guardProblem(plan, { users: kept, invalid: 0 }, { value: limit, explicit: flag !== undefined });
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
