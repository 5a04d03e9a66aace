#!/usr/bin/env node
// Thin launcher (docs/architecture.md, Start-up). CommonJS (bin/package.json), like the
// bundle: no ES module loader at start. `--version` and `--help` are answered here, from
// package.json and the help text the build saved (dist/bundle/help.txt, what the program
// prints at 80 columns); everything else runs dist/bundle/cli.cjs through boot.cjs, which
// loads it with the code compiled on an earlier run. Only the exit code is set here.
"use strict";

const argv = process.argv.slice(2);
const only = argv.length === 1 ? argv[0] : undefined;
const fs = () => require("node:fs");

/** `simadmin --help | head -1`: the reader left; stop quietly as a program killed by SIGPIPE would. */
function print(text) {
  process.stdout.on("error", (error) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(0);
  });
  process.stdout.write(text);
}

if (only === "--version" || only === "-V") {
  let version = "0.0.0";
  try {
    version = JSON.parse(fs().readFileSync(require.resolve("../package.json"), "utf8")).version;
  } catch {
    // As the program says when package.json cannot be read (src/main.ts).
  }
  print(`${version}\n`);
} else if ((only === "--help" || only === "-h") && !(process.stdout.isTTY && process.stdout.columns < 80)) {
  print(fs().readFileSync(require.resolve("../dist/bundle/help.txt"), "utf8"));
} else {
  require("../dist/bundle/boot.cjs")
    .start(argv)
    .then((code) => {
      process.exitCode = code;
    });
}
