import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedService, type ScriptedService } from "../helpers/scripted-service.js";
import { startTestEnv, type TestEnv } from "../helpers/in-process.js";

// progress when an answer cannot settle a pair (docs/progress.md): a completedAt that is no
// timestamp is no completion (and is not cached), and one malformed answer is reported on its
// row while the other pairs are still asked. A scripted service answers per user.

const ANSWERS: Record<string, unknown> = {
  // completedAt is text, not a time: not completed, whatever completionTime says.
  "u-blank": { completionData: [{ executionId: "e1", completedAt: " ", completionTime: null, score: null, status: "STARTED" }] },
  "u-null-text": { completionData: [{ executionId: "e2", completedAt: "null", completionTime: 120, score: 80, status: "DONE" }] },
  // executionId is a number: the answer cannot be read.
  "u-malformed": { completionData: [{ executionId: 7, completedAt: "2026-11-20T10:00:00Z", completionTime: 60 }] },
  "u-done": { completionData: [{ executionId: "e4", completedAt: "2026-11-20T10:00:00Z", completionTime: 60, score: 90 }] },
};

let service: ScriptedService;
let t: TestEnv;
let dir: string;
const asked: string[] = [];
beforeAll(async () => {
  service = await startScriptedService((_req, res) => {
    const user = asked.shift() ?? "";
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(ANSWERS[user] ?? { completionData: [] }));
  });
  t = await startTestEnv();
  dir = await mkdtemp(join(tmpdir(), "simadmin-progress-"));
});
afterAll(async () => {
  await Promise.all([service.close(), t.close(), rm(dir, { recursive: true, force: true })]);
});

async function runProgress(users: string[]) {
  const file = join(dir, `pairs-${users.length}-${Date.now()}.csv`);
  await writeFile(file, ["userId,simulationId", ...users.map((u) => `${u},sim-1`)].join("\n"));
  asked.push(...users);
  const r = await t.capture(["progress", "--from-csv", file, "-o", "json"], {
    env: { SIMADMIN_BASE_URL: service.baseUrl, SIMADMIN_CONFIG_DIR: dir },
  });
  return { ...r, records: r.stdout ? (JSON.parse(r.stdout) as { userId: string; state: string; error?: string }[]) : [] };
}

describe("progress: pairs the answer cannot settle", () => {
  it("a completedAt of ' ' or 'null' is not completed; a malformed answer is that pair's error and the run goes on", async () => {
    const r = await runProgress(["u-blank", "u-malformed", "u-null-text", "u-done"]);
    const state = Object.fromEntries(r.records.map((rec) => [rec.userId, rec.state]));
    expect(state).toEqual({
      "u-blank": "in-progress",
      "u-malformed": "unknown",
      "u-null-text": "in-progress",
      "u-done": "completed",
    });
    expect(r.records.find((rec) => rec.userId === "u-malformed")?.error).toMatch(/could not be read/);
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toMatch(/1 pair could not be settled/);
  });

  it("the next run asks the unsettled and not-completed pairs again, not the completed one (cached)", async () => {
    const r = await runProgress(["u-blank", "u-malformed", "u-null-text", "u-done"]);
    expect(r.records.map((rec) => rec.state)).toEqual(["in-progress", "unknown", "in-progress", "completed"]);
    // Three asked (the queue holds the one left for the cached pair).
    expect(asked).toEqual(["u-done"]);
    asked.length = 0;
  });
});
