/**
 * Reduces a transcript to the sequence that must be stable from one recording to the next:
 * directions, methods, reply outcomes, item types/statuses, turn and thread statuses — no
 * ids, texts or timestamps. Orderings the server does not guarantee are normalised:
 *
 *  1. handshake window: every frame after the initialize reply and before the thread/start
 *     reply is sorted (configWarning / remoteControl are sent without waiting for the client's
 *     `initialized`, so they interleave with it and with thread/start);
 *  2. thread window: frames from the thread/start reply up to the first turn/start are sorted
 *     (thread/started and start-up warnings race the client's first request);
 *  3. turn head: in every turn, the frames after the c2s turn/start and before the turn's
 *     userMessage item/started (else its first item/started) are sorted (the turn/start reply,
 *     turn/started, thread/status/changed, the model-metadata warning and, when the context is
 *     compacted first, the contextCompaction item arrive in any order);
 *  4. consecutive agentMessage deltas collapse into one entry (their count depends on pacing).
 */

export interface SequenceLine {
  readonly dir: 'c2s' | 's2c';
  readonly frame: Record<string, unknown>;
}

const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '?';

function errorInfo(v: unknown): string {
  if (typeof v === 'string') return v;
  const keys = Object.keys(obj(v));
  return keys[0] ?? 'null';
}

function notificationDetail(method: string, params: Record<string, unknown>): string {
  switch (method) {
    case 'item/started':
    case 'item/completed': {
      const item = obj(params.item);
      return typeof item.status === 'string'
        ? `:${str(item.type)}/${item.status}`
        : `:${str(item.type)}`;
    }
    case 'turn/completed':
      return `:${str(obj(params.turn).status)}`;
    case 'thread/status/changed': {
      const status = obj(params.status);
      const flags = Array.isArray(status.activeFlags)
        ? `[${status.activeFlags.map(str).join(',')}]`
        : '';
      return `:${str(status.type)}${flags}`;
    }
    case 'error':
      return `:willRetry=${String(params.willRetry)}:${errorInfo(obj(params.error).codexErrorInfo)}`;
    default:
      return '';
  }
}

/** One signature per frame, in transcript order (before normalisation). */
export function frameSignatures(lines: readonly SequenceLine[]): string[] {
  const clientRequests = new Map<string, string>();
  const serverRequests = new Map<string, string>();
  return lines.map(({ dir, frame }) => {
    const method = typeof frame.method === 'string' ? frame.method : undefined;
    const id = 'id' in frame ? JSON.stringify(frame.id) : undefined;
    const outcome = 'error' in frame ? `error:${str(obj(frame.error).code)}` : 'result';
    if (method !== undefined && id !== undefined) {
      (dir === 'c2s' ? clientRequests : serverRequests).set(id, method);
      return `${dir} request ${method}`;
    }
    if (method !== undefined)
      return `${dir} notify ${method}${notificationDetail(method, obj(frame.params))}`;
    const answered =
      id === undefined ? undefined : (dir === 's2c' ? clientRequests : serverRequests).get(id);
    return `${dir} reply ${answered ?? '?'} ${outcome}`;
  });
}

function sortRange(sigs: string[], start: number, end: number): void {
  if (start < 0 || end <= start) return;
  const sorted = sigs.slice(start, end).sort();
  sigs.splice(start, sorted.length, ...sorted);
}

/** The normalised sequence described in this module's header. */
export function normalizedSequence(lines: readonly SequenceLine[]): string[] {
  const sigs = frameSignatures(lines);
  const find = (sig: string, from = 0): number => sigs.indexOf(sig, from);
  const initReply = find('s2c reply initialize result');
  const threadReply = find('s2c reply thread/start result');
  const firstTurn = find('c2s request turn/start');
  if (initReply >= 0) sortRange(sigs, initReply + 1, threadReply >= 0 ? threadReply : sigs.length);
  if (threadReply >= 0) sortRange(sigs, threadReply, firstTurn >= 0 ? firstTurn : sigs.length);
  for (let i = find('c2s request turn/start'); i >= 0; i = find('c2s request turn/start', i + 1)) {
    const userItem = sigs.findIndex((s, j) => j > i && s === 's2c notify item/started:userMessage');
    const firstItem =
      userItem >= 0
        ? userItem
        : sigs.findIndex((s, j) => j > i && s.startsWith('s2c notify item/started'));
    const nextTurn = find('c2s request turn/start', i + 1);
    const end =
      firstItem >= 0 && (nextTurn < 0 || firstItem < nextTurn)
        ? firstItem
        : nextTurn >= 0
          ? nextTurn
          : sigs.length;
    sortRange(sigs, i + 1, end);
  }
  return sigs.filter((s, i) => !(s === 's2c notify item/agentMessage/delta' && sigs[i - 1] === s));
}
