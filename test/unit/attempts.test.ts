import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import {
  classifyAttempt,
  completedAtMs,
  describeInconsistency,
  filterSince,
  formatSummary,
  parseSince,
  summarizeAttempts,
  type AttemptLike,
} from "../../src/domain/simulation-attempts.js";

const completed = (executionId: string, completedAt: string, score: number | null, completionTime = 600): AttemptLike => ({
  executionId,
  completedAt,
  completionTime,
  score,
  status: "COMPLETED",
});
const incomplete = (executionId: string, status = "STARTED"): AttemptLike => ({
  executionId,
  completedAt: null,
  completionTime: null,
  score: null,
  status,
});

describe("classifyAttempt", () => {
  it.each<[string, AttemptLike, string]>([
    ["both set", { executionId: "e", completedAt: "2026-01-06T10:11:42Z", completionTime: 702 }, "completed"],
    ["both set, zero seconds", { executionId: "e", completedAt: "2026-01-06T10:11:42Z", completionTime: 0 }, "completed"],
    ["both null", { executionId: "e", completedAt: null, completionTime: null }, "incomplete"],
    ["both missing", { executionId: "e" }, "incomplete"],
    ["only completedAt", { executionId: "e", completedAt: "2026-01-06T10:11:42Z", completionTime: null }, "inconsistent"],
    ["only completionTime", { executionId: "e", completedAt: null, completionTime: 702 }, "inconsistent"],
    ["empty completedAt with a time", { executionId: "e", completedAt: "", completionTime: 702 }, "inconsistent"],
  ])("%s → %s", (_name, attempt, state) => {
    expect(classifyAttempt(attempt)).toBe(state);
  });

  it("does not look at status: a COMPLETED status without the times is not completed", () => {
    expect(classifyAttempt({ executionId: "e", status: "COMPLETED", completedAt: null, completionTime: null })).toBe(
      "incomplete",
    );
  });
});

describe("summarizeAttempts", () => {
  it("counts attempts and completions, best and latest score", () => {
    const summary = summarizeAttempts([
      incomplete("e1", "INTERRUPTED"),
      completed("e2", "2026-01-06T10:11:42Z", 78.5),
      completed("e3", "2026-01-12T14:39:05Z", 91.25),
      incomplete("e4"),
    ]);
    expect(summary).toEqual({
      attempts: 4,
      completed: 2,
      incomplete: 2,
      inconsistent: 0,
      bestScore: 91.25,
      latestScore: 91.25,
      latestCompletedAt: "2026-01-12T14:39:05Z",
    });
  });

  it("takes the latest by completedAt, not by position, and the best independently", () => {
    const summary = summarizeAttempts([
      completed("late", "2026-03-01T00:00:00Z", 60),
      completed("early", "2026-01-01T00:00:00Z", 95),
    ]);
    expect(summary.bestScore).toBe(95);
    expect(summary.latestScore).toBe(60);
  });

  it("does not count an inconsistent attempt as completed", () => {
    const summary = summarizeAttempts([
      { executionId: "x", completedAt: "2026-01-01T00:00:00Z", completionTime: null, score: 99 },
    ]);
    expect(summary).toMatchObject({ attempts: 1, completed: 0, inconsistent: 1, bestScore: null, latestScore: null });
  });

  it.each<[string, AttemptLike[], string | undefined, string]>([
    ["no attempts", [], undefined, "no attempts"],
    ["no attempts after --since", [], "2026-01-10", "no attempts after 2026-01-10"],
    ["only incomplete ones", [incomplete("a"), incomplete("b")], undefined, "2 attempts, 0 completed"],
    [
      "a completion",
      [completed("a", "2026-01-12T14:39:05Z", 91.25)],
      undefined,
      "1 attempt, 1 completed — best score 91.25, latest 91.25 (2026-01-12T14:39:05Z)",
    ],
    [
      "a completion without a score",
      [completed("a", "2026-01-12T14:39:05Z", null)],
      undefined,
      "1 attempt, 1 completed — best score none, latest none (2026-01-12T14:39:05Z)",
    ],
  ])("summary line: %s", (_name, attempts, since, line) => {
    expect(formatSummary(summarizeAttempts(attempts), since)).toBe(line);
  });
});

describe("parseSince", () => {
  it.each([
    ["2026-01-10", Date.UTC(2026, 0, 10)],
    ["2026-01-10T14:30:00Z", Date.UTC(2026, 0, 10, 14, 30)],
    ["2026-01-10T14:30Z", Date.UTC(2026, 0, 10, 14, 30)],
    ["2026-01-10T14:30:00.250Z", Date.UTC(2026, 0, 10, 14, 30, 0, 250)],
    ["2026-01-10T16:30:00+02:00", Date.UTC(2026, 0, 10, 14, 30)],
    ["2026-01-10t14:30:00z", Date.UTC(2026, 0, 10, 14, 30)],
  ])("reads %j", (text, ms) => {
    expect(parseSince(text)).toBe(ms);
  });

  it.each([
    ["yesterday", "not an ISO 8601 timestamp"],
    ["2026-02-30", "not a real calendar date"],
    ["2026-13-01", "not a real calendar date"],
    ["2026-01-10T25:00:00Z", "not a valid time of day"],
    ["2026-01-10T14:30:00", "no time zone"],
    ["10/01/2026", "not an ISO 8601 timestamp"],
  ])("refuses %j (%s) as a usage error naming --since", (text, why) => {
    expect(() => parseSince(text)).toThrow(UsageError);
    expect(() => parseSince(text)).toThrow(new RegExp(`^--since: .*${why}`));
  });
});

describe("filterSince", () => {
  const attempts = [
    completed("before", "2026-01-06T10:11:42Z", 78.5),
    completed("at", "2026-01-10T00:00:00Z", 80),
    completed("after", "2026-01-12T14:39:05Z", 91.25),
    incomplete("running"),
    { executionId: "odd", completedAt: "2026-01-01T00:00:00Z", completionTime: null },
  ];

  it("keeps attempts that ended strictly after --since and those not ended", () => {
    const { kept, dropped } = filterSince(attempts, Date.UTC(2026, 0, 10));
    expect(kept.map((a) => a.executionId)).toEqual(["after", "running"]);
    expect(dropped).toBe(3);
  });

  it("keeps everything without --since", () => {
    expect(filterSince(attempts, undefined)).toEqual({ kept: attempts, dropped: 0 });
  });

  it("counts only completions after --since in the summary", () => {
    const { kept } = filterSince(attempts, Date.UTC(2026, 0, 10));
    expect(summarizeAttempts(kept)).toMatchObject({ attempts: 2, completed: 1, bestScore: 91.25 });
  });
});

describe("attempt edges (issue 27 item 3)", () => {
  const HINT = "; use e.g. 2026-01-10 or 2026-01-10T14:30:00Z";

  it("reads the last minute and second of a day, a zone without a colon, blanks around", () => {
    expect(parseSince("2026-01-10T23:59:59Z")).toBe(Date.UTC(2026, 0, 10, 23, 59, 59));
    expect(parseSince("2026-01-10T14:30:00+0200")).toBe(Date.UTC(2026, 0, 10, 12, 30));
    expect(parseSince("  2026-01-10 ")).toBe(Date.UTC(2026, 0, 10));
  });

  it.each([
    ["2026-01-10T24:00:00Z", "is not a valid time of day"],
    ["2026-01-10T14:60:00Z", "is not a valid time of day"],
    ["2026-01-10T14:30:60Z", "is not a valid time of day"],
    ["2026-01-10T14:30:00+99:00", "is not an ISO 8601 timestamp"],
    ["2026-01-10T14:30", "has no time zone (add Z for UTC)"],
    ["2026-01-10T14:30:00.5", "has no time zone (add Z for UTC)"],
    [" yesterday", "is not an ISO 8601 timestamp"],
    ["2026-02-29", "is not a real calendar date"],
    ["2026-04-31T10:00Z", "is not a real calendar date"],
  ])("refuses %j: the exact line", (text, why) => {
    expect(() => parseSince(text)).toThrow(new UsageError(`--since: ${JSON.stringify(text)} ${why}${HINT}`));
  });

  it("names the flag it is given", () => {
    expect(() => parseSince("soon", "--after")).toThrow(`--after: "soon" is not an ISO 8601 timestamp${HINT}`);
  });

  it("says which half an inconsistent attempt lacks", () => {
    expect(describeInconsistency({ executionId: "e", completedAt: "2026-01-01T00:00:00Z", completionTime: null })).toBe(
      "it has completedAt but no completionTime",
    );
    expect(describeInconsistency({ executionId: "e", completedAt: "", completionTime: 5 })).toBe(
      "it has completionTime but no completedAt",
    );
  });

  it("reads completedAt only when it is readable text", () => {
    expect(completedAtMs({ executionId: "e", completedAt: "2026-01-01T00:00:00Z" })).toBe(Date.UTC(2026, 0, 1));
    expect(completedAtMs({ executionId: "e", completedAt: "" })).toBeUndefined();
    expect(completedAtMs({ executionId: "e", completedAt: "soon" })).toBeUndefined();
    expect(completedAtMs({ executionId: "e", completedAt: null })).toBeUndefined();
  });

  it("--since keeps an attempt whose completedAt cannot be read", () => {
    const odd = completed("odd", "last week", 50);
    expect(filterSince([odd, completed("old", "2026-01-01T00:00:00Z", 1)], Date.UTC(2026, 0, 10))).toEqual({
      kept: [odd],
      dropped: 1,
    });
  });

  it("latest: on the same instant the later record; a readable time wins over an unreadable one", () => {
    expect(
      summarizeAttempts([completed("a", "2026-01-10T00:00:00Z", 10), completed("b", "2026-01-10T00:00:00.000Z", 20)]),
    ).toMatchObject({ latestScore: 20, latestCompletedAt: "2026-01-10T00:00:00.000Z" });
    expect(summarizeAttempts([completed("a", "2026-01-10T00:00:00Z", 10), completed("b", "later", 20)])).toMatchObject({
      latestScore: 10,
      latestCompletedAt: "2026-01-10T00:00:00Z",
    });
    expect(summarizeAttempts([completed("b", "later", 20)])).toMatchObject({ latestScore: 20, latestCompletedAt: "later" });
  });

  it("a score that is not a finite number is no score", () => {
    const summary = summarizeAttempts([
      completed("a", "2026-01-10T00:00:00Z", 40),
      completed("b", "2026-01-11T00:00:00Z", Number.NaN),
      completed("c", "2026-01-12T00:00:00Z", Number.POSITIVE_INFINITY),
    ]);
    expect(summary).toMatchObject({ bestScore: 40, latestScore: null });
    expect(
      summarizeAttempts([completed("a", "2026-01-10T00:00:00Z", -5), completed("b", "2026-01-09T00:00:00Z", -7)]),
    ).toMatchObject({
      bestScore: -5,
      latestScore: -5,
    });
  });

  it("a completedAt that is not text is no latest time", () => {
    const attempt = { executionId: "n", completedAt: 5 as unknown as string, completionTime: 1, score: 3 };
    expect(summarizeAttempts([attempt])).toMatchObject({ completed: 1, latestScore: 3, latestCompletedAt: null });
    expect(formatSummary(summarizeAttempts([attempt]))).toBe("1 attempt, 1 completed — best score 3, latest 3");
  });

  it("the summary line names inconsistent attempts and --since", () => {
    const attempts: AttemptLike[] = [
      completed("a", "2026-01-12T14:39:05Z", 91.25),
      { executionId: "b", completedAt: "2026-01-11T00:00:00Z", completionTime: null },
    ];
    expect(formatSummary(summarizeAttempts(attempts), "2026-01-10")).toBe(
      "2 attempts after 2026-01-10, 1 completed, 1 inconsistent — best score 91.25, latest 91.25 (2026-01-12T14:39:05Z)",
    );
    expect(formatSummary(summarizeAttempts([attempts[1]!]))).toBe("1 attempt, 0 completed, 1 inconsistent");
    expect(formatSummary(summarizeAttempts([]), "")).toBe("no attempts");
  });
});

describe("attempts: the last survivors (issue 27 item 3)", () => {
  const HINT2 = "; use e.g. 2026-01-10 or 2026-01-10T14:30:00Z";
  it.each([
    ["x2026-01-10T14:30", "is not an ISO 8601 timestamp"],
    ["2026-01-10T14:30:00junk", "is not an ISO 8601 timestamp"],
    ["2026-01-10T14:30:00.123", "has no time zone (add Z for UTC)"],
    ["0050-01-10T14:30:00Z", "is not a real calendar date"],
    ["2026-01-10T24:00Z", "is not a valid time of day"],
  ])("--since %s: %s", (text, why) => {
    expect(() => parseSince(text)).toThrow(new UsageError(`--since: ${JSON.stringify(text)} ${why}${HINT2}`));
  });

  it("a completedAt that is a number is no time, even one Date.parse would read as a year", () => {
    expect(completedAtMs({ executionId: "e1", completedAt: 2026 as unknown as string })).toBeUndefined();
    expect(completedAtMs({ executionId: "e1", completedAt: "" })).toBeUndefined();
  });

  it("the best score of negative scores, a missing one beside them", () => {
    const done = (executionId: string, score: number | null): AttemptLike => ({
      executionId,
      completedAt: `2026-01-1${executionId.slice(1)}T09:00:00Z`,
      completionTime: 60,
      score,
    });
    expect(summarizeAttempts([done("e1", -3), done("e2", null)])).toMatchObject({ bestScore: -3, latestScore: null });
    expect(summarizeAttempts([done("e1", 5), done("e2", -3)])).toMatchObject({ bestScore: 5, latestScore: -3 });
    expect(summarizeAttempts([done("e1", Number.NaN)])).toMatchObject({ bestScore: null, latestScore: null });
  });
});
