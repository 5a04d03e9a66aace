import { appendFileSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, expect } from "vitest";

// Per test file, the CPU its worker spent and that of the processes it spawned and reaped
// (the built binary, initdb, npm…), appended as one JSON line to $SIMADMIN_TEST_CPU.
// vitest.config.ts loads it only when that variable is set; scripts/test-cpu.mjs sums the
// lines (docs/development.md, "How long the suite takes"). Servers that detach (PostgreSQL
// started by pg_ctl) are nobody's children: not counted.

const TICKS_PER_SECOND = 100;
/** The CPU seconds of this process's reaped children (cutime + cstime of /proc/self/stat). */
function childrenSeconds(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

let start = { cpu: process.cpuUsage(), children: 0, wall: 0 };
beforeAll(() => {
  start = { cpu: process.cpuUsage(), children: childrenSeconds(), wall: Date.now() };
});
afterAll(() => {
  const cpu = process.cpuUsage(start.cpu);
  const line = {
    file: expect.getState().testPath ?? "",
    worker: (cpu.user + cpu.system) / 1e6,
    children: childrenSeconds() - start.children,
    wall: (Date.now() - start.wall) / 1000,
    // When the file started (epoch ms): the run's timeline, which files overlap and which end it.
    start: start.wall,
    // The worker's whole CPU so far: its last line, less its files' sum, is what it spent
    // outside them (starting, importing modules).
    pid: process.pid,
    process: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
  };
  appendFileSync(process.env.SIMADMIN_TEST_CPU!, `${JSON.stringify(line)}\n`);
});
