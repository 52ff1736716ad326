/**
 * Frame-sequence comparison of a scenario against the baseline's recording. Both sides are
 * normalised (scripts/lib/sequence.ts) and then split in two views:
 *  - the adapter view: every client frame, every reply, every server request, and the
 *    notifications the adapter reads — compared in order; a difference fails the review;
 *  - the ignored notifications (status, warnings…) and the account-wide rate limits: compared as counts per
 *    signature, not by position, because their placement races with the frames around them
 *    (e.g. thread/status/changed against item/completed in approval_decline). A difference is
 *    reported but does not fail the review.
 * A difference confined to the `codexErrorInfo` of `error` notifications (the same failure
 * classified differently by another release; the adapter maps every value, unknown ones to a
 * catch-all) is reported as such and does not fail the review either.
 *
 * Two more races are normalised in the adapter view (each seen between two recordings of one
 * release, and neither changes what the adapter emits beyond the order of independent events):
 *  - usage vs a local tool: a model response's `thread/tokenUsage/updated` races with the
 *    completion of a tool codex runs locally for that response (a command, a patch, an MCP or
 *    dynamic tool call); a usage report right after such an `item/completed` is moved before
 *    it. Its count, and its place relative to every other frame, still count;
 *  - a delta in flight at an interrupt: agentMessage deltas between the client's
 *    `turn/interrupt` and its reply continue the run of deltas the interrupt cut, when the turn
 *    was streaming one (a delta after an interrupt of a turn that had none still differs).
 * Ignored notifications that are stream chunks (methods ending in `Delta`, e.g. a command's
 * `outputDelta`) are not counted: how many arrive, and whether any do, depends on pipe pacing.
 */
import { normalizedSequence, type SequenceLine } from '../sequence.js';
import { ADAPTER_SURFACE } from './protocol-surface.js';

export interface ScenarioComparison {
  readonly status:
    | 'same'
    | 'differs'
    | 'differs only in codexErrorInfo'
    | 'differs only in ignored notifications'
    /** A scenario whose frames are evidence only (`Scenario.evidenceOnly`). */
    | 'differs (evidence only)'
    | 'not recorded';
  /** `- sig` (baseline only) / `+ sig` (this release only) lines, then ignored count changes. */
  readonly differences: readonly string[];
}

/**
 * Read, but account-wide: handed to the host's callback outside any run, so where it falls among
 * a turn's frames changes nothing the adapter publishes. Compared by count, like ignored ones.
 */
const ACCOUNT_WIDE: ReadonlySet<string> = new Set(['account/rateLimits/updated']);

const READ = new Set<string>(ADAPTER_SURFACE.notifications.filter((m) => !ACCOUNT_WIDE.has(m)));

function isIgnored(sig: string): boolean {
  const match = /^s2c notify ([^:]+)/.exec(sig);
  return match?.[1] !== undefined && !READ.has(match[1]);
}

/** Longest-common-subsequence diff of two signature lists. */
export function lcsDiff(a: readonly string[], b: readonly string[]): string[] {
  const n = a.length;
  const m = b.length;
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const row = table[i] ?? [];
      row[j] =
        a[i] === b[j]
          ? (table[i + 1]?.[j + 1] ?? 0) + 1
          : Math.max(table[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      i++;
      j++;
    } else if ((table[i + 1]?.[j] ?? 0) >= (table[i]?.[j + 1] ?? 0)) {
      out.push(`- ${a[i] ?? ''}`);
      i++;
    } else {
      out.push(`+ ${b[j] ?? ''}`);
      j++;
    }
  }
  for (; i < n; i++) out.push(`- ${a[i] ?? ''}`);
  for (; j < m; j++) out.push(`+ ${b[j] ?? ''}`);
  return out;
}

const isStreamChunk = (sig: string): boolean => /^s2c notify [^:]+Delta(?::|$)/.test(sig);

const LOCAL_TOOL_COMPLETED =
  /^s2c notify item\/completed:(commandExecution|fileChange|mcpToolCall|dynamicToolCall)\//;
const USAGE = 's2c notify thread/tokenUsage/updated';
const DELTA = 's2c notify item/agentMessage/delta';
const INTERRUPT = 'c2s request turn/interrupt';
const INTERRUPT_REPLY = /^s2c reply turn\/interrupt /;

/** The two adapter-view races described in this module's header, in canonical order. */
export function normalizeAdapterRaces(view: readonly string[]): string[] {
  const out = [...view];
  for (let i = 1; i < out.length; i++) {
    // bubble the usage report back over every local-tool completion it follows
    for (let j = i; j > 0 && out[j] === USAGE && LOCAL_TOOL_COMPLETED.test(out[j - 1] ?? ''); j--) {
      [out[j - 1], out[j]] = [out[j] ?? '', out[j - 1] ?? ''];
    }
  }
  const result: string[] = [];
  let inFlight = false;
  for (const sig of out) {
    if (sig === INTERRUPT) inFlight = result.at(-1) === DELTA;
    else if (INTERRUPT_REPLY.test(sig) || sig.startsWith('s2c notify turn/completed')) {
      inFlight = false;
    } else if (inFlight && sig === DELTA) continue;
    result.push(sig);
  }
  return result;
}

function counts(sigs: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of sigs) out.set(s, (out.get(s) ?? 0) + 1);
  return out;
}

export function compareSequences(
  baseline: readonly SequenceLine[],
  candidate: readonly SequenceLine[],
): ScenarioComparison {
  const a = normalizedSequence(baseline);
  const b = normalizedSequence(candidate);
  const viewA = normalizeAdapterRaces(a.filter((s) => !isIgnored(s)));
  const viewB = normalizeAdapterRaces(b.filter((s) => !isIgnored(s)));
  const adapterDiff = lcsDiff(viewA, viewB);
  const ca = counts(a.filter((s) => isIgnored(s) && !isStreamChunk(s)));
  const cb = counts(b.filter((s) => isIgnored(s) && !isStreamChunk(s)));
  const ignored: string[] = [];
  for (const sig of [...new Set([...ca.keys(), ...cb.keys()])].sort()) {
    const x = ca.get(sig) ?? 0;
    const y = cb.get(sig) ?? 0;
    if (x !== y) ignored.push(`~ ${sig}: ${x} → ${y}`);
  }
  const withoutErrorInfo = (sigs: readonly string[]): string[] =>
    sigs.map((s) => s.replace(/^(s2c notify error:willRetry=[a-z]+):.*$/, '$1'));
  const errorInfoOnly =
    adapterDiff.length > 0 &&
    lcsDiff(withoutErrorInfo(viewA), withoutErrorInfo(viewB)).length === 0;
  const status =
    adapterDiff.length === 0
      ? ignored.length > 0
        ? 'differs only in ignored notifications'
        : 'same'
      : errorInfoOnly
        ? 'differs only in codexErrorInfo'
        : 'differs';
  return { status, differences: [...adapterDiff, ...ignored] };
}
