/**
 * Thrown-cause tokens (§10.3): the only thing about an underlying error that may be published.
 * Never the message, path or errno text.
 */
export const CAUSE_TOKENS = [
  'ABORT_ERR',
  'EACCES',
  'ECONNRESET',
  'ENOENT',
  'ENOTDIR',
  'EPERM',
  'EPIPE',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ETIMEDOUT',
  'unknown',
] as const;
export type CauseToken = (typeof CAUSE_TOKENS)[number];

const KNOWN: ReadonlySet<string> = new Set(CAUSE_TOKENS.filter((t) => t !== 'unknown'));

function field(err: object, key: 'code' | 'name'): unknown {
  try {
    return (err as Record<string, unknown>)[key];
  } catch {
    // a throwing getter must not escape a diagnostics path
    return undefined;
  }
}

export function causeToken(err: unknown): CauseToken {
  if (typeof err !== 'object' || err === null) return 'unknown';
  const code = field(err, 'code');
  if (typeof code === 'string' && KNOWN.has(code)) return code as CauseToken;
  if (field(err, 'name') === 'AbortError') return 'ABORT_ERR';
  return 'unknown';
}
