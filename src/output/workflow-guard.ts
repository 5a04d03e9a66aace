import { Writable } from "node:stream";
import type { IOStreams } from "./io.js";

// Under GitHub Actions the runner reads every line of a step's stdout and stderr for
// workflow commands: a line that starts with `::` once trimmed (`::error file=README.md::…`,
// `::add-mask::…`), and the older `##[command]` form anywhere in a line. Text of ours never
// starts so, but a report value, a CSV cell or a file name holding a line break could, and
// would forge an annotation, mask a value or stop the log's commands (docs/ci-and-cron.md
// "GitHub Actions"). Under GITHUB_ACTIONS=true, main.ts passes stdout and stderr through this
// guard: the second `:` of such a line becomes the visible `\u003a`, the `[` of `##[` becomes
// `\u005b` (the escapes of sanitize.ts). The CI report's own commands go to the raw stderr
// (IOStreams.commands). Binary chunks (a workbook) pass untouched.

const WHITESPACE = /\s/;

/** A stateful filter over one stream's text, chunk after chunk (a line may span chunks). */
export class WorkflowCommandGuard {
  /** The current line so far is whitespace only. */
  private lineHead = true;
  /** …and one `:` after it. */
  private headColon = false;
  /** The last two characters written, for `##[` across chunks. */
  private tail = "";

  filter(text: string): string {
    // The common chunk has nothing to guard and no state to carry: as it is.
    if (!/[:#[\s]/.test(text) && !this.lineHead) {
      this.tail = text.slice(-2);
      return text;
    }
    let out = "";
    for (const c of text) {
      let written = c;
      if (c === "[" && this.tail === "##") written = "\\u005b";
      if (c === ":" && this.headColon) written = "\\u003a";
      if (c === "\n" || c === "\r") {
        this.lineHead = true;
        this.headColon = false;
      } else if (this.lineHead && c === ":" && !this.headColon) {
        this.headColon = true;
      } else if (!(this.lineHead && !this.headColon && WHITESPACE.test(c))) {
        this.lineHead = false;
        this.headColon = false;
      }
      out += written;
      this.tail = `${this.tail}${c}`.slice(-2);
    }
    return out;
  }
}

/** A stream that writes into `target` through the guard. */
function guarded(target: Writable): Writable {
  const guard = new WorkflowCommandGuard();
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Uint8Array, _encoding, callback) {
      const text = typeof chunk === "string" ? guard.filter(chunk) : chunk;
      if (target.write(text)) callback();
      else target.once("drain", () => callback());
    },
  });
}

/** The streams of a run under GitHub Actions: data and messages guarded, commands raw. */
export function guardWorkflowCommands(io: IOStreams): IOStreams {
  let stdout: Writable | undefined;
  let stderr: Writable | undefined;
  return {
    // Read lazily, as systemIO() does: Node creates process.stderr when it is first read.
    get stdout() {
      return (stdout ??= guarded(io.stdout));
    },
    get stderr() {
      return (stderr ??= guarded(io.stderr));
    },
    get stdin() {
      return io.stdin;
    },
    get stdoutIsTTY() {
      return io.stdoutIsTTY;
    },
    get stderrIsTTY() {
      return io.stderrIsTTY;
    },
    get stdinIsTTY() {
      return io.stdinIsTTY;
    },
    get columns() {
      return io.columns;
    },
    get commands() {
      return io.stderr;
    },
  };
}
