import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import { createProgress, fitWidth, HEARTBEAT_BOUND_MS } from "../../src/output/progress.js";
import type { IOStreams } from "../../src/output/io.js";
import { PassThrough, Readable, Writable } from "node:stream";
import { FAST, startTestEnv, type TestEnv } from "../helpers/in-process.js";

// Issue 26 items 1-3 (docs/ci-and-cron.md): --ping-url, heartbeats without a terminal.

let t: TestEnv;
let monitor: Server;
let monitorUrl: string;
const pings: { method: string; url: string; headers: IncomingMessage["headers"] }[] = [];
beforeAll(async () => {
  t = await startTestEnv(FAST);
  monitor = createServer((req, res) => {
    pings.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    req.resume();
    res.end("OK");
  });
  await new Promise<void>((resolve) => monitor.listen(0, "127.0.0.1", resolve));
  monitorUrl = `http://127.0.0.1:${(monitor.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => monitor.close(resolve));
});

describe("--ping-url", () => {
  it("pings <url>/start then <url> for a run that succeeds, keeping the query, without the API key", async () => {
    pings.length = 0;
    const r = await t.capture(["token", "--user", "user-demo", "--ping-url", `${monitorUrl}/check-1?rid=7`]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(pings.map((p) => p.url)).toEqual(["/check-1/start?rid=7", "/check-1?rid=7"]);
    const key = t.env.SIMADMIN_API_KEY!;
    for (const ping of pings) expect(JSON.stringify(ping.headers)).not.toContain(key);
  });

  it("pings <url>/<exit code> for a run that fails", async () => {
    pings.length = 0;
    const r = await t.capture(["token", "--user", "nobody-here", "--ping-url", `${monitorUrl}/check-2/`]);
    expect(r.exitCode).toBe(5);
    expect(pings.map((p) => p.url)).toEqual(["/check-2/start", "/check-2/5"]);
  });

  it("only warns when the monitor cannot be reached", async () => {
    const r = await t.capture(["token", "--user", "user-demo", "--ping-url", "http://127.0.0.1:9/check"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/warning: --ping-url: the start ping to http:\/\/127\.0\.0\.1:9 failed \(ECONNREFUSED\)/);
    expect(r.stderr).toMatch(/the success ping/);
  });

  it("refuses a URL that carries the API key, before anything is sent", async () => {
    pings.length = 0;
    const key = t.env.SIMADMIN_API_KEY!;
    const r = await t.capture(["token", "--user", "user-demo", "--ping-url", `${monitorUrl}/${key}`]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--ping-url carries the API key/);
    expect(r.stderr).not.toContain(key);
    expect(pings).toEqual([]);
    expect(r.sent).toEqual([]);
  });
});

class Buffered extends Writable {
  text = "";
  override _write(chunk: Buffer, _e: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

function pipeIO(): IOStreams & { stderr: Buffered } {
  return {
    stdout: new PassThrough(),
    stderr: new Buffered(),
    stdin: Readable.from([]),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    columns: undefined,
  };
}

describe("heartbeats without a terminal", () => {
  it("prints nothing for a run shorter than the bound, then a line within every 30 s of the injected clock", async () => {
    const clock = createFakeClock();
    const io = pipeIO();
    let tick: (() => void) | undefined;
    const progress = await createProgress(io, {
      quiet: false,
      color: false,
      now: () => clock.now(),
      every: (_ms, check) => {
        tick = check;
        return () => (tick = undefined);
      },
    });
    progress.update("window 1 of 9");
    clock.advance(10_000);
    progress.update("window 2 of 9");
    expect(io.stderr.text).toBe("");
    // Nine silent minutes of one long request: only the timer ticks (every second of real time).
    const times: number[] = [];
    for (let s = 0; s < 9 * 60; s++) {
      clock.advance(1000);
      const before = io.stderr.text.length;
      tick?.();
      if (io.stderr.text.length > before) times.push(clock.now());
    }
    const lines = io.stderr.text.trimEnd().split("\n");
    expect(lines[0]).toBe("window 2 of 9 (25s so far)");
    expect(lines.at(-1)).toMatch(/^window 2 of 9 \(9m\d\ds so far\)$/);
    const gaps = times.slice(1).map((at, i) => at - times[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(HEARTBEAT_BOUND_MS);
    expect(lines.length).toBeGreaterThanOrEqual(18);
    progress.done();
    expect(tick).toBeUndefined();
  });

  it("is silent with --quiet", async () => {
    const io = pipeIO();
    const clock = createFakeClock();
    const progress = await createProgress(io, { quiet: true, color: false, now: () => clock.now() });
    clock.advance(120_000);
    progress.update("x");
    expect(io.stderr.text).toBe("");
  });

  it("a spinner line is cut to the width", () => {
    expect(fitWidth("abcdef", 4)).toBe("abc…");
    expect(fitWidth("abc", 4)).toBe("abc");
  });
});
