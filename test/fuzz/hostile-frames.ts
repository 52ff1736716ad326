/**
 * The hostile peer's frames: the native ids it uses, a template's leaves mutated as an action
 * says, the raw lines it writes, and the native ids a frame carries.
 */
import { CANARY, type Action, type Mutation } from './hostile-actions.js';

export const THREAD = 'thr-NATIVE-0f1e2d3c4b5a';
export const FOREIGN_THREAD = 'thr-NATIVE-foreign-99';
export const STRAY_TURN = 'turn-NATIVE-stray-77';
export const MAX_LINE = 16 * 1024;
export const WORKSPACE = '/work/fuzz-workspace';

/** Fields whose text the SPI publishes verbatim (model output, question prose): no canary there. */
const VERBATIM_KEYS = new Set(['delta', 'text', 'question', 'header', 'label', 'description']);

/** Every leaf path of a JSON value (objects and arrays), in a stable order. */
function leafPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const entries = Array.isArray(value)
    ? value.map((v, i) => [i, v] as const)
    : Object.entries(value);
  if (entries.length === 0) return [prefix];
  return entries.flatMap(([k, v]) => leafPaths(v, [...prefix, k]));
}

export interface CaseOptions {
  /** Self-test only: also put the canary where the SPI publishes text verbatim. */
  readonly canaryEverywhere?: boolean;
}

export function mutate(
  frame: Record<string, unknown>,
  how: Mutation,
  leaf: number,
  value: unknown,
  options: CaseOptions,
): Record<string, unknown> {
  if (how === 'none') return frame;
  const paths = leafPaths(frame.params).filter((p) => p.length > 0);
  const path = paths[leaf % Math.max(1, paths.length)];
  const params = frame.params;
  if (path === undefined || params === null || typeof params !== 'object') {
    return how === 'canary' ? { ...frame, params: CANARY } : frame;
  }
  let parent = params as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const key = path.at(-1)!;
  // a canary placed where the SPI publishes text verbatim would be published by design
  const verbatim = options.canaryEverywhere !== true && VERBATIM_KEYS.has(String(key));
  const odd = verbatim && JSON.stringify(value ?? null).includes('CANARY') ? 0 : value;
  if (how === 'wrongType') parent[key] = odd;
  else if (how === 'dropKey') Reflect.deleteProperty(parent, key);
  else if (how === 'extraKey') parent[`x_${String(key)}`] = value;
  else if (options.canaryEverywhere === true || !VERBATIM_KEYS.has(String(key))) {
    const old = parent[key];
    parent[key] = typeof old === 'string' ? `${old} ${CANARY}` : CANARY;
  }
  return frame;
}

export function turnResult(id: string): Record<string, unknown> {
  return {
    id,
    items: [],
    itemsView: 'notLoaded',
    status: 'inProgress',
    error: null,
    startedAt: null,
    completedAt: null,
    durationMs: null,
  };
}

/** Native identifiers in a frame: ids of threads, turns, items and requests (long enough to be distinctive). */
export function collectIds(value: unknown, into: Set<string>, key = ''): void {
  if (typeof value === 'string') {
    if (/^(id|threadId|turnId|itemId|callId|call_id)$/.test(key) && value.length >= 8)
      into.add(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) collectIds(v, into, key);
    return;
  }
  if (value !== null && typeof value === 'object') {
    // question ids are the published answer keys (SPI question_set)
    for (const [k, v] of Object.entries(value)) if (k !== 'questions') collectIds(v, into, k);
  }
}

/** The line a `bytes` action writes (without its newline): `text` cut short, or one over the limit, junk or a bare value. */
export function hostileLine(
  action: Extract<Action, { t: 'bytes' }>,
  text: string,
  liveTurn: string,
): Buffer {
  if (action.kind === 'truncated')
    return Buffer.from(text.slice(0, 1 + (action.seed % (text.length - 1))));
  if (action.kind === 'oversized')
    return Buffer.from(
      JSON.stringify({
        method: 'item/agentMessage/delta',
        params: {
          threadId: THREAD,
          turnId: liveTurn,
          itemId: 'msg_1',
          delta: `${CANARY} `.repeat(MAX_LINE / 10),
        },
      }),
    );
  if (action.kind === 'garbage') return Buffer.from(action.junk.filter((b) => b !== 0x0a));
  return Buffer.from(['42', '"str"', '[1,2]', 'null', 'true'][action.seed % 5]!);
}
