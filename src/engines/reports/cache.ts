import { createHash } from "node:crypto";
import { fstat, type Stats } from "node:fs";
import { chmod, mkdir, mkdtemp, open, readdir, readFile, rm, rmdir, stat, type FileHandle } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import type { DateRange } from "../../domain/date-windows.js";
import { utf8ByteText } from "../../domain/byte-text.js";
import { exactJsonText, parseExactJson } from "../../domain/exact-json.js";
import { extractRecords, type JsonRecord } from "../../domain/records.js";
import type { ElementSpans } from "../../domain/report-element-spans.js";
import {
  elementRecord,
  JsonShapeScanner,
  MalformedJsonError,
  type ResponseShape,
  type ScannerOptions,
} from "../../domain/report-record-scanner.js";
import { LocalFileError, UnexpectedResponseError } from "../../errors.js";
import { openAtomicFile, processAlive, type AtomicFile } from "../../output/atomic-file.js";
import { writeChunk } from "../../output/io.js";
import type { SecretScan } from "../../output/secret-scan.js";

// The report windows engine, shared by `reports` and `reports sync` (docs/architecture.md
// "Engines"): where each window's answer is kept, byte for byte as the service sent it, from
// the moment it arrives until the whole run has succeeded (docs/cli-contract.md "Behaviour every
// command keeps": the resume cache):
//
// - Memory: an answer goes from the socket to this file without being held, and its records
//   are read back one by one (domain/report-record-scanner.ts), so a window of 100,000
//   records costs kilobytes, not a 30 MB string and its 80 MB parsed copy.
// - Resume: a failed or interrupted run leaves its finished windows here, and the same
//   command run again takes them from disk instead of spending the service's
//   10-per-minute budget on them again. A file appears only complete and checked (temp
//   file + rename), so a window cut short is never reused.
//
// The file name is a hash of (base URL, API version, a fingerprint of the API key, kind,
// window dates) (docs/cli-contract.md, "Concurrency"): the same command
// with the same key against the same service finds its windows; another key (another
// tenant), service or version never does. The key itself is neither part of any name nor
// stored: only a SHA-256 of it, salted with a fixed label, goes into the hash of the name.
// Windows older than MAX_AGE_MS are neither reused nor kept: report data of recent days
// still changes (it lags ~15 min behind). Directory 0700, files 0600: reports hold personal
// data of trainees.
//
// The CSV writer's spool of rows (output/record-stream.ts: rows wait for the header) lives
// under the settings directory too, never in the shared temp dir: `report-spool/<host>-<pid>`
// (0700), removed at the end of the run; a spool left by a killed run is removed by the next
// run (its pid is dead on this host, or it is older than MAX_AGE_MS).

export const MAX_AGE_MS = 24 * 60 * 60_000;
const CACHE_FORMAT = "v2";
/** Records handed to the writer at a time. */
const BATCH = 256;
/** How much of a window file is read at a time. */
const READ_CHUNK = 64 * 1024;

/**
 * Where pass 1 found a window's records (report-element-spans.ts), and which file it read:
 * the spans are used only for that very file (device, inode and size) — a concurrent run of
 * the same command may have renamed a fresh copy of the window over it since.
 */
interface WindowIndex {
  spans: ElementSpans;
  dev: number;
  ino: number;
  size: number;
  /** The spans count bytes (the answer was scanned as bytes: save's `bytes`), not UTF-16 units. */
  bytes: boolean;
}

const sameFile = (index: WindowIndex, info: Stats): boolean =>
  info.dev === index.dev && info.ino === index.ino && info.size === index.size;

/** UTF-8 bytes as a string of one character per byte (recordBytes): a copy, no decoding. */
const byteString = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");

/**
 * A record as recordBytes gives it: its UTF-8 bytes one per character, and the tag the reader
 * of the answer's scan gave it when it read it (save's `elements`; -1: none).
 */
export interface RecordBytes {
  bytes: string;
  tag: number;
}

/**
 * Records of a window as recordBlocks hands them over: a block of the answer's bytes holding
 * `count` whole records, each from start(i) to end(i) in `bytes`, with its tag (-1: none).
 * The bytes are valid until the next block is asked for.
 */
export interface RecordBlock {
  bytes: Buffer;
  /** How many bytes of `bytes` the block holds. */
  size: number;
  count: number;
  start(i: number): number;
  end(i: number): number;
  tag(i: number): number;
}

/** Bytes of the answer read at a time by recordBlocks (a record longer than this is read alone). */
const BLOCK_BYTES = 256 * 1024;

export interface CacheIdentity {
  baseUrl: string;
  apiVersion: 1 | 2;
  /** keyFingerprint(apiKey): whose data, without the key. */
  keyFingerprint: string;
}

/** A hash standing for the API key in cache names: the key itself is never written. */
export function keyFingerprint(apiKey: string): string {
  return createHash("sha256").update("simadmin report cache key\0").update(apiKey).digest("hex");
}

export class ReportCache {
  /** Spans of windows read by pass 1 and not yet by pass 2, by file (taken by the first reading). */
  private readonly indexes = new Map<string, WindowIndex>();

  private constructor(
    readonly dir: string,
    /** false: a throw-away directory (the settings dir is not writable); no resume. */
    readonly persistent: boolean,
    private readonly identity: CacheIdentity,
    private readonly now: () => number,
  ) {}

  /** Creates (or tightens) the private directory and drops windows too old to reuse. */
  static async open(dir: string, identity: CacheIdentity, now: () => number): Promise<ReportCache> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await chmod(dir, 0o700);
    const cache = new ReportCache(dir, true, identity, now);
    await cache.pruneStale();
    return cache;
  }

  /** A private temp directory (mkdtemp: 0700) used for one run and removed with dispose(). */
  static async temporary(identity: CacheIdentity, now: () => number): Promise<ReportCache> {
    return new ReportCache(await mkdtemp(join(tmpdir(), "simadmin-reports-")), false, identity, now);
  }

  /**
   * A throw-away cache in a directory the caller made private (a run's spool directory,
   * openSpoolDir): used for one run, removed with dispose(), and by the next run when this
   * one was killed.
   */
  static inRunDirectory(dir: string, identity: CacheIdentity, now: () => number): ReportCache {
    return new ReportCache(dir, false, identity, now);
  }

  private fileFor(kind: string, window: DateRange): string {
    const { baseUrl, apiVersion, keyFingerprint } = this.identity;
    const key = createHash("sha256")
      .update(
        JSON.stringify([
          CACHE_FORMAT,
          baseUrl.replace(/\/+$/, ""),
          apiVersion,
          keyFingerprint,
          kind,
          window.startDate,
          window.endDate,
        ]),
      )
      .digest("hex")
      .slice(0, 40);
    return join(this.dir, `${key}.json`);
  }

  /** Whether a fresh, complete copy of the window is on disk. */
  async has(kind: string, window: DateRange): Promise<boolean> {
    try {
      const info = await stat(this.fileFor(kind, window));
      return info.isFile() && this.now() - info.mtimeMs < MAX_AGE_MS;
    } catch {
      return false;
    }
  }

  /**
   * Stores an answer as it streams in, checking its structure on the way; the file is renamed
   * into place only when the answer is complete and well-formed. Returns where its records are.
   * With `bytes` (a reader of recordBytes) the answer is checked as bytes, not decoded, and
   * `elements` may read its records on the way (report-record-scanner.ts).
   */
  async save(
    kind: string,
    window: DateRange,
    body: AsyncIterable<Uint8Array>,
    label: string,
    options: { bytes?: boolean; elements?: ScannerOptions["elements"] } = {},
  ): Promise<ResponseShape> {
    const file = await this.openWindowFile(kind, window);
    const path = this.fileFor(kind, window);
    this.indexes.delete(path);
    const bytes = options.bytes === true;
    try {
      const scanner = new JsonShapeScanner({ index: true, bytes, elements: bytes ? options.elements : undefined });
      const decoder = bytes ? undefined : new TextDecoder("utf-8");
      let size = 0;
      for await (const chunk of body) {
        scanner.feed(decoder ? decoder.decode(chunk, { stream: true }) : byteString(chunk));
        size += chunk.length;
        try {
          await writeChunk(file.stream, chunk);
        } catch (error) {
          throw file.failure() ?? LocalFileError.fromSystem(error, file.path, "write");
        }
      }
      if (decoder) scanner.feed(decoder.decode());
      const shape = scanner.end();
      // The file as written (its inode stays the same through the rename; its size is what was
      // written, some of which may still be on its way), not whatever is at its name later.
      const info = await fileInfo((file.stream as unknown as { fd: number | null }).fd);
      await file.commit();
      const spans = scanner.elementSpans(shape);
      if (spans && info) this.indexes.set(path, { spans, dev: info.dev, ino: info.ino, size, bytes });
      return shape;
    } catch (error) {
      await file.abort();
      if (error instanceof MalformedJsonError) {
        throw new UnexpectedResponseError(`${label}: the service answered something unexpected (not JSON: ${error.message})`);
      }
      // A full settings directory fails the export even when the output's disk has room:
      // say where the space is needed.
      if (error instanceof LocalFileError && (error.code === "ENOSPC" || error.code === "EDQUOT")) {
        throw error.rephrase(
          error.message,
          `report windows pass through the resume cache in ${this.dir}: free space there, or point SIMADMIN_CONFIG_DIR at a disk that has it`,
        );
      }
      throw error;
    }
  }

  /**
   * A concurrent run that just succeeded removes the directory when it is empty (dispose);
   * if that happened between our mkdir and now, make it again once.
   */
  private async openWindowFile(kind: string, window: DateRange): Promise<AtomicFile> {
    try {
      return await openAtomicFile(this.fileFor(kind, window), 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      return openAtomicFile(this.fileFor(kind, window), 0o600);
    }
  }

  /** Pass 1 over a stored window (after a resume): where its records are. */
  async shapeOf(kind: string, window: DateRange, label: string): Promise<ResponseShape> {
    const scanner = new JsonShapeScanner({ index: true });
    const path = this.fileFor(kind, window);
    this.indexes.delete(path);
    try {
      const text = await this.openText(kind, window);
      for await (const chunk of text.chunks) scanner.feed(chunk);
      const shape = scanner.end();
      const spans = scanner.elementSpans(shape);
      const { info } = text;
      if (spans) this.indexes.set(path, { spans, dev: info.dev, ino: info.ino, size: info.size, bytes: false });
      return shape;
    } catch (error) {
      throw await this.unusable(kind, window, label, error);
    }
  }

  /**
   * The window's records in batches, read back from disk one at a time. `scan` sees every
   * chunk of the text before the records parsed from it are yielded (an answer parsed whole
   * is not scanned: the scan then proves nothing).
   */
  async *records(
    kind: string,
    window: DateRange,
    shape: ResponseShape,
    label: string,
    scan?: SecretScan,
  ): AsyncGenerator<JsonRecord[]> {
    if (shape.kind === "empty") return;
    if (shape.kind === "whole") {
      scan?.giveUp();
      this.indexes.delete(this.fileFor(kind, window));
      yield extractRecords(await this.whole(kind, window, shape, label));
      return;
    }
    yield* this.elements(kind, window, shape, label, elementRecord, scan);
  }

  /**
   * The window's records as the service wrote them, one JSON text each (`reports sync` reads
   * numbers from the text: JSON.parse would round integers beyond 2^53).
   */
  async *recordTexts(kind: string, window: DateRange, shape: ResponseShape, label: string): AsyncGenerator<string[]> {
    if (shape.kind === "empty") return;
    if (shape.kind === "whole") {
      yield extractRecords(await this.whole(kind, window, shape, label)).map((record) => exactJsonText(record));
      return;
    }
    yield* this.elements(kind, window, shape, label, (text) => text);
  }

  /**
   * The window's records as the service wrote them, each as its UTF-8 bytes one per character
   * (a Buffer read as `latin1`; the answer best saved with `bytes`): `reports sync` copies
   * most of them into its load file as they are, without decoding and encoding them again.
   */
  async *recordBytes(kind: string, window: DateRange, shape: ResponseShape, label: string): AsyncGenerator<RecordBytes[]> {
    if (shape.kind === "empty") return;
    if (shape.kind === "whole") {
      for await (const texts of this.recordTexts(kind, window, shape, label))
        yield texts.map((text) => ({ bytes: utf8ByteText(text), tag: -1 }));
      return;
    }
    yield* this.elements(kind, window, shape, label, (bytes, _exact, tag) => ({ bytes, tag }), undefined, true);
  }

  /**
   * recordBytes in blocks of bytes, read straight from the file where pass 1 noted in bytes
   * where its records are (save's `bytes`): no string is made of a record, so `reports sync`
   * copies the bytes of the records the scan read by layout into its load file as they are.
   * Anywhere else, recordBytes' records gathered into blocks.
   */
  async *recordBlocks(kind: string, window: DateRange, shape: ResponseShape, label: string): AsyncGenerator<RecordBlock> {
    const path = this.fileFor(kind, window);
    const index = this.indexes.get(path);
    if (shape.kind === "array" || shape.kind === "object-with-list") {
      if (index?.bytes) {
        let handle: FileHandle | undefined;
        try {
          handle = await open(path, "r");
          if (sameFile(index, await handle.stat())) {
            this.indexes.delete(path);
            yield* spanBlocks(handle, index.spans);
            return;
          }
        } catch (error) {
          throw await this.unusable(kind, window, label, error);
        } finally {
          await handle?.close().catch(() => undefined);
        }
      }
    }
    for await (const records of this.recordBytes(kind, window, shape, label)) yield textBlock(records);
  }

  /**
   * The elements of an array or member answer, each made by `make` from its JSON text, in
   * batches read back from disk one chunk at a time; `scan` sees every chunk first.
   */
  private async *elements<T>(
    kind: string,
    window: DateRange,
    shape: Exclude<ResponseShape, { kind: "empty" | "whole" }>,
    label: string,
    make: (text: string, exact: boolean, tag: number) => T,
    scan?: SecretScan,
    bytes = false,
  ): AsyncGenerator<T[]> {
    let pending: T[] = [];
    // A scan here (no spans) reads no element ahead: no tags.
    const onElement = (text: string, exact: boolean, tag = -1): number => pending.push(make(text, exact, tag));
    const path = this.fileFor(kind, window);
    const index = this.indexes.get(path);
    this.indexes.delete(path);
    try {
      const text = await this.openText(kind, window, bytes);
      // Pass 1's spans where they were made from this very file, counting what is read here
      // (bytes or characters); else the second scan.
      const cutter = index && index.bytes === bytes && sameFile(index, text.info) ? index.spans.cutter(onElement) : undefined;
      const target = shape.kind === "array" ? "top-array" : { member: shape.member };
      const scanner = cutter ? undefined : new JsonShapeScanner({ bytes, capture: { target, onElement } });
      for await (const chunk of text.chunks) {
        scan?.feed(chunk);
        if (cutter) cutter.feed(chunk);
        else scanner?.feed(chunk);
        if (pending.length >= BATCH) {
          const batch = pending;
          pending = [];
          yield batch;
        }
      }
      if (cutter && !cutter.done()) throw new MalformedJsonError("the document ends too early");
      scanner?.end();
    } catch (error) {
      throw await this.unusable(kind, window, label, error);
    }
    if (pending.length > 0) yield pending;
  }

  /** The whole answer as a value (--raw, and answers that are one record). */
  async whole(kind: string, window: DateRange, shape: ResponseShape, label: string): Promise<unknown> {
    if (shape.kind === "empty") return null;
    try {
      // Numbers JSON.parse would change keep their text (exact-json.ts): --raw is untouched.
      return parseExactJson(await readFile(this.fileFor(kind, window), "utf8"));
    } catch (error) {
      throw await this.unusable(kind, window, label, error);
    }
  }

  /** A window that cannot be read back is dropped, so that the next run fetches it again. */
  private async unusable(kind: string, window: DateRange, label: string, error: unknown): Promise<Error> {
    if (!(error instanceof SyntaxError) && !(error instanceof MalformedJsonError))
      return error instanceof Error ? error : new Error(String(error));
    await this.remove(kind, window);
    return new UnexpectedResponseError(`${label}: the service answered something unexpected (${error.message})`);
  }

  /**
   * A window file's text in chunks, decoded as save() decoded it (TextDecoder: offsets of the
   * two passes agree) or with `bytes` one character per byte, and what the file is (sameFile).
   */
  private async openText(kind: string, window: DateRange, bytes = false): Promise<{ info: Stats; chunks: AsyncIterable<string> }> {
    const handle = await open(this.fileFor(kind, window), "r");
    let info: Stats;
    try {
      info = await handle.stat();
    } catch (error) {
      await handle.close();
      throw error;
    }
    async function* chunks(): AsyncGenerator<string> {
      const decoder = bytes ? undefined : new TextDecoder("utf-8");
      // One buffer for every read of the file: each chunk is copied into a string at once. A
      // new Buffer per chunk (a read stream's) is memory outside V8's heap that only a full
      // garbage collection frees: at a 26 MB window that was both a higher peak and CPU
      // (docs/reports-sync.md, Figures).
      const buffer = Buffer.allocUnsafe(READ_CHUNK);
      try {
        for (;;) {
          const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK, null);
          if (bytesRead === 0) break;
          const text = decoder ? decoder.decode(buffer.subarray(0, bytesRead), { stream: true }) : buffer.toString("latin1", 0, bytesRead);
          if (text !== "") yield text;
        }
        const rest = decoder?.decode() ?? "";
        if (rest !== "") yield rest;
      } finally {
        await handle.close().catch(() => undefined);
      }
    }
    return { info, chunks: chunks() };
  }

  async remove(kind: string, window: DateRange): Promise<void> {
    this.indexes.delete(this.fileFor(kind, window));
    await rm(this.fileFor(kind, window), { force: true });
  }

  /** After a successful run (or at the end of a throw-away one). */
  async dispose(): Promise<void> {
    if (!this.persistent) {
      await rm(this.dir, { recursive: true, force: true });
      return;
    }
    try {
      await rmdir(this.dir); // only when empty: another run's windows may be there
    } catch {
      // Not empty, or already gone.
    }
  }

  private async pruneStale(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      // .tmp: a write cut short by a killed process (atomic-file's temp names).
      if (!name.endsWith(".json") && !name.endsWith(".tmp")) continue;
      const path = join(this.dir, name);
      try {
        const info = await stat(path);
        if (this.now() - info.mtimeMs >= MAX_AGE_MS) await rm(path, { force: true });
      } catch {
        // Removed meanwhile by a concurrent run: nothing to do.
      }
    }
  }
}

/**
 * This run's private spool directory under `<configDir>/report-spool` (0700), after removing
 * spools of runs that died. Returns the directory and how to remove it at the end.
 */
export async function openSpoolDir(configDir: string, now: () => number): Promise<{ dir: string; remove(): Promise<void> }> {
  const root = join(configDir, "report-spool");
  await mkdir(root, { recursive: true, mode: 0o700 });
  await chmod(root, 0o700);
  await pruneSpools(root, now);
  const dir = join(root, `${hostname()}-${process.pid}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

async function pruneSpools(root: string, now: () => number): Promise<void> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return;
  }
  const host = hostname();
  for (const name of names) {
    const match = /^(.*)-(\d+)$/.exec(name);
    const path = join(root, name);
    try {
      // A spool of this host whose run is gone; one of another host (a shared settings
      // directory) only once it is too old to belong to a running export.
      const dead = match !== null && match[1] === host && !processAlive(Number(match[2]));
      if (dead || now() - (await stat(path)).mtimeMs >= MAX_AGE_MS) await rm(path, { recursive: true, force: true });
    } catch {
      // Removed meanwhile by a concurrent run: nothing to do.
    }
  }
}

/** The records of `spans` read from the file in blocks of whole records, through one buffer. */
async function* spanBlocks(handle: FileHandle, spans: ElementSpans): AsyncGenerator<RecordBlock> {
  let buffer = Buffer.allocUnsafe(BLOCK_BYTES);
  for (let next = 0; next < spans.count;) {
    const base = spans.start(next);
    let last = next + 1;
    while (last < spans.count && spans.end(last) - base <= BLOCK_BYTES) last++;
    const size = spans.end(last - 1) - base;
    const bytes = size <= BLOCK_BYTES ? buffer : Buffer.allocUnsafe(size);
    for (let at = 0; at < size;) {
      const { bytesRead } = await handle.read(bytes, at, size - at, base + at);
      if (bytesRead === 0) throw new MalformedJsonError("the document ends too early");
      at += bytesRead;
    }
    const from = next;
    yield {
      bytes,
      size,
      count: last - from,
      start: (i) => spans.start(from + i) - base,
      end: (i) => spans.end(from + i) - base,
      tag: (i) => spans.tag(from + i),
    };
    if (bytes !== buffer) buffer = Buffer.allocUnsafe(BLOCK_BYTES);
    next = last;
  }
}

/** Records given as strings of bytes, as one block. */
function textBlock(records: readonly RecordBytes[]): RecordBlock {
  const starts: number[] = [];
  const ends: number[] = [];
  let size = 0;
  for (const record of records) {
    starts.push(size);
    size += record.bytes.length;
    ends.push(size);
  }
  return {
    bytes: Buffer.from(records.map((record) => record.bytes).join(""), "latin1"),
    size,
    count: records.length,
    start: (i) => starts[i]!,
    end: (i) => ends[i]!,
    tag: (i) => records[i]!.tag,
  };
}

/** What the file behind `fd` is (undefined when it cannot be told: the spans are then not kept). */
function fileInfo(fd: number | null): Promise<Stats | undefined> {
  if (typeof fd !== "number") return Promise.resolve(undefined);
  return new Promise((resolve) => fstat(fd, (error, info) => resolve(error ? undefined : info)));
}
