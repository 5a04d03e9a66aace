// Types for code-cache-seed.mjs, so that test/helpers/cli.ts can import it.
export declare function seedCodeCache(xdgCacheHome: string): void;
export declare function keepCodeCache(xdgCacheHome: string): void;
