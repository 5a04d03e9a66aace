import type { ReadStream } from "node:tty";
import { InterruptedError } from "../errors.js";
import type { IOStreams } from "./io.js";

// Questions go to stderr so that stdout stays clean data even when a prompt is shown.

/** Reads a line without echoing it (for the API key). Requires stdin to be a terminal. */
export function promptHidden(io: IOStreams, question: string): Promise<string> {
  const stdin = io.stdin as ReadStream;
  io.stderr.write(question);
  return new Promise((resolve, reject) => {
    let value = "";
    const wasRaw = stdin.isRaw;
    stdin.setRawMode?.(true);
    stdin.resume();
    stdin.setEncoding("utf8");
    const finish = (error?: Error): void => {
      stdin.off("data", onData);
      stdin.setRawMode?.(wasRaw ?? false);
      stdin.pause();
      io.stderr.write("\n");
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string): void => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n") return finish();
        if (ch === "\u0003") return finish(new InterruptedError()); // Ctrl-C in raw mode
        if (ch === "\u0004") return finish(); // Ctrl-D
        if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
        else if (ch >= " ") value += ch;
      }
    };
    stdin.on("data", onData);
  });
}

/** Reads all of stdin (for --with-key). */
export async function readAllStdin(io: IOStreams): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

/** Asks a yes/no question on a terminal; anything but y/yes is no. */
export async function confirm(io: IOStreams, question: string): Promise<boolean> {
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
