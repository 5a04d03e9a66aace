// Preloaded (`node -r`) into a benchmarked process: reports its peak RSS (kB) on stderr as it
// exits. CommonJS, so that a CommonJS program still starts without the ES module loader.
"use strict";
process.on("exit", () => require("node:fs").writeSync(2, `\nBENCH_MAXRSS_KB=${process.resourceUsage().maxRSS}\n`));
