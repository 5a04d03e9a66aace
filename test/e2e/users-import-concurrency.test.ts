import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userCells } from "../../fixtures/users/generate.mjs";
import { execa } from "execa";
import { BIN, binaryEnv, FAST, startTestEnv, tempDir, type TestEnv } from "../helpers/cli.js";

// Issue 12 item 3, docs/cli-contract.md "Concurrency": two real processes importing the same
// 1,600-row file at the same time upload its three batches once, not twice. The second run
// stops with exit 2 naming the first one's pid (output/file-lock.ts), and the manifest keeps
// every taskId.

const UPLOAD = "/v2/access-api/user/bulk-import";
const HEADER = "firstName,lastName,username,email,role,teamName,status,action";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ rateLimits: { access: { limit: 10_000, windowMs: 1000 } }, importStepMs: 50 });
});
afterAll(async () => {
  await env.close();
});

describe("two users import runs of the same file", () => {
  it("upload 3 batches in total, not 6: one run imports, the other stops with exit 2 naming its pid", async () => {
    const dir = await tempDir();
    try {
      const lines = [HEADER];
      for (let i = 1; i <= 1600; i++) {
        const cells = userCells(i).cells;
        cells[7] = "Add";
        lines.push(cells.join(","));
      }
      await writeFile(join(dir.path, "staff.csv"), `${lines.join("\n")}\n`);
      // Slow uploads keep the first run busy long after the second has started.
      env.sandbox.faults.delayNext(UPLOAD, 3, 400);
      const start = () =>
        execa(process.execPath, [BIN, "users", "import", "staff.csv", "-o", "json"], {
          reject: false,
          cwd: dir.path,
          env: binaryEnv({ ...env.env, ...FAST }),
          extendEnv: false,
          stdin: "ignore",
        });
      const first = start();
      const second = start();
      const results = await Promise.all([first, second]);
      const pids = [first.pid, second.pid];

      const uploads = env.sandbox.requests.filter((r) => r.path === UPLOAD);
      expect(uploads).toHaveLength(3);
      const codes = results.map((r) => r.exitCode);
      expect(codes.sort()).toEqual([0, 2]);
      const winner = results.findIndex((r) => r.exitCode === 0);
      const loser = results[1 - winner]!;
      expect(String(loser.stderr)).toContain(`another simadmin process (pid ${pids[winner]}`);
      expect(String(loser.stderr)).toContain("nothing was sent");

      const manifest = JSON.parse(await readFile(join(dir.path, "staff.import.json"), "utf8")) as {
        batches: { taskId?: string }[];
      };
      const tasks = env.sandbox.state.listTasks(env.sandbox.org).map((t) => t.taskId);
      expect(tasks).toHaveLength(3);
      expect(manifest.batches.map((b) => b.taskId)).toEqual(tasks);
    } finally {
      await dir.remove();
    }
  });
});
