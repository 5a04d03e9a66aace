import type { ChunkSink } from "../../src/output/record-types.js";

/** An output sink that keeps what is written, for the output writers' unit tests. */
export function memorySink(toTerminal = false): ChunkSink & { text(): string; bytes(): Buffer; writes: number } {
  const chunks: Buffer[] = [];
  const sink = {
    toTerminal,
    writes: 0,
    async write(chunk: string | Uint8Array) {
      chunks.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk));
      sink.writes++;
    },
    text: () => Buffer.concat(chunks).toString("utf8"),
    bytes: () => Buffer.concat(chunks),
  };
  return sink;
}
