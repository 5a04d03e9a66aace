// Preloaded (`node -r`) into a benchmarked process: reports its peak RSS (kB) and its CPU time
// (ms, user + system: nearly immune to neighbours on a shared machine) on stderr as it exits. CommonJS, so that a CommonJS program still starts without the ES module loader.
"use strict";
process.on("exit", () => {
  const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage();
  require("node:fs").writeSync(2, `\nBENCH_MAXRSS_KB=${maxRSS}\nBENCH_CPU_MS=${(userCPUTime + systemCPUTime) / 1000}\n`);
});
