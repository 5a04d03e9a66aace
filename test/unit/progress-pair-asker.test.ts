import { describe, expect, it } from "vitest";
import type { ApiClient, Endpoint } from "../../src/api/client.js";
import { UserTokens } from "../../src/api/user-tokens.js";
import { createFakeClock } from "../../src/clock.js";
import type { ProgressRow } from "../../src/domain/progress.js";
import type { CachedPair, CompletedPairCache, PairIdentity } from "../../src/engines/progress/cache.js";
import { PairAsker, type AskStep, type PairResult } from "../../src/engines/progress/pair-asker.js";
import { InvalidDataError, NotFoundError, ServiceError } from "../../src/errors.js";

// The progress engine as a library (docs/architecture.md "Engines"): given a client, a clock,
// a cache and callbacks, it asks completion per pair and links per simulation, and returns
// data. The client here answers from a table; the counts, steps and cache entries it reports
// are checked against what that table makes them.

const NOW = Date.UTC(2026, 10, 23, 12);
const ORG = "org-1";

type Answer = unknown;

function fakeClient(answers: Record<string, Answer>): { client: ApiClient; sent: string[] } {
  const sent: string[] = [];
  const client = {
    postJson: (endpoint: Endpoint, body: { userId: string; simulationId?: string }) => {
      const key = `${endpoint.path} ${body.userId}${body.simulationId === undefined ? "" : `/${body.simulationId}`}`;
      sent.push(key);
      const answer = answers[key] ?? answers[`${endpoint.path} *`];
      if (answer === undefined) throw new Error(`no answer for ${key}`);
      return Promise.resolve(typeof answer === "function" ? (answer as () => never)() : answer);
    },
  } as unknown as ApiClient;
  return { client, sent };
}

const row = (n: number, userId: string, simulationId: string): ProgressRow => ({
  row: n,
  userId,
  simulationId,
  dueDate: undefined,
  extra: {},
});

const COMPLETED = {
  completionData: [
    { executionId: "e1", status: "COMPLETED", completedAt: "2026-11-20T10:00:00Z", completionTime: 900, score: 81 },
  ],
};
const STARTED = { completionData: [{ executionId: "e2", status: "STARTED", completedAt: null, score: null }] };

function asker(answers: Record<string, Answer>, withSteps = true) {
  const clock = createFakeClock(NOW);
  const { client, sent } = fakeClient(answers);
  const puts: [PairIdentity, CachedPair][] = [];
  const cache = {
    put: (identity: PairIdentity, entry: CachedPair) => {
      puts.push([identity, entry]);
      return Promise.resolve();
    },
  } as unknown as CompletedPairCache;
  const steps: AskStep[] = [];
  const tokens = new UserTokens({ client: () => Promise.resolve(client), clock, redact: () => undefined });
  const pairAsker = new PairAsker({
    client,
    organizationId: ORG,
    clock,
    cache,
    identity: (r) => ({
      baseUrl: "https://api.example.com",
      organizationId: ORG,
      userId: r.userId,
      simulationId: r.simulationId,
    }),
    warn: () => undefined,
    tokens,
    ...(withSteps
      ? {
          onStep: (step: AskStep) => {
            steps.push(step);
          },
        }
      : {}),
  });
  return { pairAsker, sent, puts, steps };
}

const COMPLETION = "/access-api/simulation/completion-data";
const DEEP = "/access-api/simulation/deep-links";
const TOKEN = "/access-api/user/token";

describe("PairAsker.sweep", () => {
  it("asks each pair once in order, tells each step before its request, and caches what completed", async () => {
    const rows = [row(2, "u1", "s1"), row(3, "u1", "s2"), row(4, "u2", "s1")];
    const { pairAsker, sent, puts, steps } = asker({
      [`${COMPLETION} u1/s1`]: COMPLETED,
      [`${COMPLETION} u1/s2`]: STARTED,
      [`${COMPLETION} u2/s1`]: { completionData: [] },
    });
    const results = new Map<ProgressRow, PairResult>();
    await pairAsker.sweep(rows, results);
    expect(sent).toEqual([`${COMPLETION} u1/s1`, `${COMPLETION} u1/s2`, `${COMPLETION} u2/s1`]);
    expect(steps).toEqual([
      { label: "progress", done: 0, total: 3 },
      { label: "progress", done: 1, total: 3 },
      { label: "progress", done: 2, total: 3 },
    ]);
    expect([pairAsker.asked, pairAsker.requests, pairAsker.newlyCompleted]).toEqual([3, 3, 1]);
    expect(results.get(rows[0]!)?.facts).toMatchObject({ completed: true, completedAt: "2026-11-20T10:00:00Z", bestScore: 81 });
    expect(results.get(rows[1]!)?.facts).toMatchObject({ completed: false, attempts: 1 });
    expect(puts).toEqual([
      [
        { baseUrl: "https://api.example.com", organizationId: ORG, userId: "u1", simulationId: "s1" },
        { completedAt: "2026-11-20T10:00:00Z", bestScore: 81, attempts: 1, seenAt: "2026-11-23T12:00:00.000Z" },
      ],
    ]);
  });

  it("takes the caller's label, and counts on from sweep to sweep", async () => {
    const { pairAsker, steps } = asker({ [`${COMPLETION} *`]: STARTED });
    const results = new Map<ProgressRow, PairResult>();
    await pairAsker.sweep([row(2, "u1", "s1")], results);
    await pairAsker.sweep([row(2, "u1", "s1"), row(3, "u2", "s1")], results, "waiting");
    expect(steps.at(-2)).toEqual({ label: "waiting", done: 0, total: 2 });
    expect(steps.at(-1)).toEqual({ label: "waiting", done: 1, total: 2 });
    expect([pairAsker.asked, pairAsker.requests]).toEqual([3, 3]);
  });

  it("reports a pair the service refuses (404, 400) or answers unreadably on its row, and goes on", async () => {
    const rows = [row(2, "u1", "s1"), row(3, "u1", "s2"), row(4, "u1", "s3"), row(5, "u1", "s4")];
    const { pairAsker } = asker({
      [`${COMPLETION} u1/s1`]: () => {
        throw new NotFoundError("not found: no simulation s1");
      },
      [`${COMPLETION} u1/s2`]: () => {
        throw new InvalidDataError("invalid data: simulationId s2 is not an id");
      },
      [`${COMPLETION} u1/s3`]: { completionData: "nonsense" },
      [`${COMPLETION} u1/s4`]: STARTED,
    });
    const results = new Map<ProgressRow, PairResult>();
    await pairAsker.sweep(rows, results);
    expect(results.get(rows[0]!)).toEqual({ row: rows[0], facts: undefined, error: "no simulation s1" });
    expect(results.get(rows[1]!)).toEqual({ row: rows[1], facts: undefined, error: "simulationId s2 is not an id" });
    expect(results.get(rows[2]!)).toMatchObject({ facts: undefined, unsettled: true });
    expect(results.get(rows[2]!)?.error).toMatch(/^the service's answer could not be read: completion-data: /);
    expect(results.get(rows[3]!)?.error).toBeUndefined();
    expect([pairAsker.asked, pairAsker.requests, pairAsker.newlyCompleted]).toEqual([4, 4, 0]);
  });

  it("stops at any other failure, having counted the pair it was asking", async () => {
    const { pairAsker } = asker({
      [`${COMPLETION} u1/s1`]: STARTED,
      [`${COMPLETION} u1/s2`]: () => {
        throw new ServiceError("the service failed (503)");
      },
    });
    const results = new Map<ProgressRow, PairResult>();
    await expect(pairAsker.sweep([row(2, "u1", "s1"), row(3, "u1", "s2"), row(4, "u1", "s3")], results)).rejects.toThrow(
      ServiceError,
    );
    expect([pairAsker.asked, pairAsker.requests]).toEqual([2, 2]);
    expect(results.size).toBe(1);
  });
});

describe("PairAsker without a progress line", () => {
  it("asks and links with no onStep given", async () => {
    const { pairAsker, sent } = asker(
      {
        [`${COMPLETION} *`]: STARTED,
        [`${DEEP} *`]: { url: "https://app.example.com/org-1/simulation/s1" },
        [`${TOKEN} *`]: { token: "tok", expiresIn: 3600 },
      },
      false,
    );
    const results = new Map<ProgressRow, PairResult>();
    await pairAsker.sweep([row(2, "u1", "s1")], results);
    const links = await pairAsker.links([...results.values()]);
    expect(sent).toEqual([`${COMPLETION} u1/s1`, `${DEEP} u1/s1`, `${TOKEN} u1`]);
    expect([...links.values()].map((l) => l.link)).toEqual(["https://app.example.com/org-1/simulation/s1?token=tok"]);
  });
});

describe("PairAsker.links", () => {
  it("asks one deep link per simulation and one token per user, telling each step", async () => {
    const rows = [row(2, "u1", "s1"), row(3, "u2", "s1"), row(4, "u1", "s2")];
    const { pairAsker, sent, steps } = asker({
      [`${DEEP} u1/s1`]: { url: "https://app.example.com/org-1/simulation/s1" },
      [`${DEEP} u1/s2`]: { url: "https://app.example.com/org-1/simulation/s2?lang=en" },
      [`${TOKEN} u1`]: { token: "tok-u1", expiresIn: 3600 },
      [`${TOKEN} u2`]: { token: "tok-u2", expiresIn: 3600 },
    });
    const links = await pairAsker.links(rows.map((r) => ({ row: r, facts: undefined })));
    expect(sent).toEqual([`${DEEP} u1/s1`, `${TOKEN} u1`, `${TOKEN} u2`, `${DEEP} u1/s2`]);
    expect(steps).toEqual([
      { label: "links", done: 0, total: 3 },
      { label: "links", done: 1, total: 3 },
      { label: "links", done: 2, total: 3 },
    ]);
    expect([...links.values()].map((l) => l.link)).toEqual([
      "https://app.example.com/org-1/simulation/s1?token=tok-u1",
      "https://app.example.com/org-1/simulation/s1?token=tok-u2",
      "https://app.example.com/org-1/simulation/s2?lang=en&token=tok-u1",
    ]);
    expect(links.get(rows[0]!)?.expiresAt).toBe("2026-11-23T13:00:00.000Z");
    // Two deep links and two tokens: the second link of u1 reuses its token.
    expect(pairAsker.requests).toBe(4);
  });
});
