// Deterministic pseudo-random draws for the generated reports: a record's draws are seeded by
// a hash of (kind, date, index), so the same record comes out whatever window asks for it.

const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a, 32 bits, continuing from `h` so that a common prefix is hashed once. */
export function hash32(text: string, h = FNV_OFFSET): number {
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Deterministic draws from mulberry32: small, fast and good enough for fake data. */
export class Draw {
  constructor(private state: number) {}

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  score(min = 40, max = 100): number {
    return Math.round((min + this.next() * (max - min)) * 100) / 100;
  }
  ratio(): number {
    return Math.round(this.next() * 10_000) / 10_000;
  }
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("sandbox roster is empty");
    return item;
  }
}
