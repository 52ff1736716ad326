/**
 * Who may talk to the console: a request must name one of the console's own hosts (a
 * DNS-rebinding page names its attacker's host instead), come from no other origin, and carry
 * the bearer token. Pure checks over the request's headers; the server refuses before it reads
 * a body or changes anything.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const REFUSALS = [
  'host_refused',
  'origin_refused',
  'token_missing',
  'token_invalid',
] as const;
export type Refusal = (typeof REFUSALS)[number];

/** 32 random bytes, base64url: what `serve` prints once when no token is given. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

export class RequestGuard {
  readonly #hosts: ReadonlySet<string>;
  readonly #token: Buffer;

  /** `hosts`: the exact `host:port` values this console answers to. */
  constructor(hosts: readonly string[], token: string) {
    this.#hosts = new Set(hosts.map((h) => h.toLowerCase()));
    this.#token = digest(token);
  }

  /** Host and origin only: for the page shell, which holds no data. */
  checkOrigin(headers: IncomingHttpHeaders): Refusal | undefined {
    const host = headers.host?.toLowerCase();
    if (host === undefined || !this.#hosts.has(host)) return 'host_refused';
    const origin = headers.origin;
    if (origin !== undefined && origin.toLowerCase() !== `http://${host}`) return 'origin_refused';
    const site = headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return 'origin_refused';
    return undefined;
  }

  check(headers: IncomingHttpHeaders): Refusal | undefined {
    const refused = this.checkOrigin(headers);
    if (refused !== undefined) return refused;
    const auth = headers.authorization;
    if (auth === undefined) return 'token_missing';
    const match = /^Bearer ([A-Za-z0-9._~+/=-]{1,512})$/.exec(auth);
    // compared as digests: equal lengths, constant time
    if (match === null || !timingSafeEqual(digest(match[1] as string), this.#token)) {
      return 'token_invalid';
    }
    return undefined;
  }
}
