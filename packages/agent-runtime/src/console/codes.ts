/**
 * One-time codes for the page's address: the printed address carries a code, not the token,
 * so what a browser's history (and its sync) keeps is a spent code. A code is random, works
 * once, and only until it expires (on the injected clock); the page trades it for the token.
 * Codes are kept as digests, at most MAX_CODES at a time.
 */
import { createHash, randomBytes } from 'node:crypto';

export const CODE_REFUSALS = ['code_invalid', 'code_spent', 'code_expired'] as const;
export type CodeRefusal = (typeof CODE_REFUSALS)[number];

export const DEFAULT_CODE_TTL_MS = 60_000;
/** Outstanding and spent codes remembered at once; the oldest is forgotten first. */
export const MAX_CODES = 256;

const digest = (code: string): string => createHash('sha256').update(code).digest('base64url');

interface Issued {
  readonly expiresAt: number;
  spent: boolean;
}

export class OneTimeCodes {
  readonly #now: () => number;
  readonly #ttlMs: number;
  // insertion order is issue order: the first entries are the oldest
  readonly #codes = new Map<string, Issued>();

  constructor(ttlMs: number, now: () => number) {
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  issue(): string {
    const code = randomBytes(18).toString('base64url');
    this.#forget();
    if (this.#codes.size >= MAX_CODES) {
      const oldest = this.#codes.keys().next().value;
      if (oldest !== undefined) this.#codes.delete(oldest);
    }
    this.#codes.set(digest(code), { expiresAt: this.#now() + this.#ttlMs, spent: false });
    return code;
  }

  /** Spends the code: undefined when it was good, else why it is refused. */
  redeem(code: string): CodeRefusal | undefined {
    const issued = this.#codes.get(digest(code));
    if (issued === undefined) return 'code_invalid';
    if (issued.spent) return 'code_spent';
    if (this.#now() >= issued.expiresAt) return 'code_expired';
    issued.spent = true;
    return undefined;
  }

  /** Drops codes expired for a whole period: after that they are simply unknown. */
  #forget(): void {
    const cutoff = this.#now() - this.#ttlMs;
    for (const [key, issued] of this.#codes) {
      if (issued.expiresAt < cutoff) this.#codes.delete(key);
    }
  }
}
