/**
 * The review's verdict on a scenario: what the adapter publishes when the release's recording is
 * replayed to it, against what it publishes for the baseline's recording (publish-replay.ts).
 * Both sides are normalised: ids, references and timings are removed, a run of message deltas is
 * one text (how codex chunks a stream is not what a host sees), and everything else the adapter
 * emits (tool activity, usage, interactions, diagnostics, each run's end and error codes) is
 * compared in order, but for one race codex does not order (`normalizeUsageRace`). A difference
 * confined to how failed runs are classified (the same runs fail, each with the code codex's own
 * classification maps to: an older release names fewer upstream failures) is reported as such and
 * does not fail the review, as the frame comparison treats a `codexErrorInfo`-only difference. A difference only in frames the adapter ignores, or in their order, leaves
 * this comparison `same`; the frame-sequence comparison keeps it as evidence.
 */
import type { TranscriptLine } from '../../../src/testing/index.js';
import { isReplayable, publishReplay, type Published } from './publish-replay.js';
import { lcsDiff } from './sequences.js';

export interface PublishedComparison {
  readonly status:
    | 'same'
    | 'differs only in failure classification'
    /** Some recordings of this release differ, and one agrees: codex races, not a change. */
    | 'differs in some recordings'
    | 'differs'
    | 'replay failed'
    | 'not replayed';
  /** `- event` (baseline only) / `+ event` (this release only), or why the replay failed. */
  readonly differences: readonly string[];
}

/**
 * Keys whose values are identities or timings, different on every run; `outputBytes`, a count of
 * a command's streamed output that codex's own aggregate can miss chunks of (docs/protocol.md,
 * "Ordering facts and quirks"), so its presence depends on pipe pacing; and `classification`,
 * codex's own name for a failure (`codexErrorInfo`), which releases name differently for the same
 * failure while the adapter's code and providerCode stay the same (the frames keep it).
 */
const VOLATILE_KEY = /^(id|at|runRef|providerRef|outputBytes|classification)$|(Id|Ref|At|Ms)$/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

function normalise(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(UUID, '<id>');
  if (Array.isArray(value)) return value.map(normalise);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !VOLATILE_KEY.test(k))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, normalise(v)]),
    );
  }
  return value;
}

/** One line per published event, in order; a run of message deltas becomes one line. */
export function publishedSignatures(published: readonly Published[]): string[] {
  const out: string[] = [];
  let text: { source: string; text: string } | undefined;
  const flush = (): void => {
    if (text !== undefined)
      out.push(`${text.source} run.message_delta ${JSON.stringify(text.text)}`);
    text = undefined;
  };
  for (const { source, value } of published) {
    const { type, ...rest } = value as { type: string; text?: string };
    if (type === 'run.message_delta' && typeof rest.text === 'string') {
      if (text?.source === source) text.text += rest.text;
      else {
        flush();
        text = { source, text: rest.text };
      }
      continue;
    }
    flush();
    out.push(`${source} ${type} ${JSON.stringify(normalise(rest))}`);
  }
  flush();
  return out;
}

const USAGE = / run\.usage /;
const LOCAL_TOOL_ENDED =
  / run\.tool_activity .*"phase":"(succeeded|failed)","toolName":"(command|file_change|mcp_tool)"/;

/**
 * A model response's usage report races with the end of a tool codex runs locally for it (the
 * same race the frame comparison sorts): a usage report right after such an end moves before it.
 */
export function normalizeUsageRace(signatures: readonly string[]): string[] {
  const out = [...signatures];
  for (let i = 1; i < out.length; i++) {
    for (
      let j = i;
      j > 0 && USAGE.test(out[j] ?? '') && LOCAL_TOOL_ENDED.test(out[j - 1] ?? '');
      j--
    ) {
      [out[j - 1], out[j]] = [out[j] ?? '', out[j - 1] ?? ''];
    }
  }
  return out;
}

const FAILED_END = /^(run \d+) run\.end \{.*"outcome":"failed"\}$/;
const MID_TURN_ERROR = /^(run \d+) diagnostic \{"detail":\{.*"providerCode":/;

/**
 * The signatures with each failed run's error, and each mid-turn error diagnostic, reduced to
 * "failed" / "an upstream error": what remains when only the classification is set aside.
 */
export function withoutClassification(signatures: readonly string[]): string[] {
  return signatures.map((sig) => {
    const failed = FAILED_END.exec(sig);
    if (failed !== null) return `${failed[1] ?? ''} run.end failed`;
    const error = MID_TURN_ERROR.exec(sig);
    return error === null ? sig : `${error[1] ?? ''} diagnostic upstream error`;
  });
}

/** The event type a signature line names (`- run 1 run.usage {…}` → `run.usage`). */
export const eventOf = (difference: string): string =>
  /^[-+] (?:session|run \d+) (\S+)/.exec(difference)?.[1] ?? difference;

/** How many times a scenario is recorded when its published events differ from the baseline's. */
export const RECORDINGS_ON_DIFFERENCE = 3;

/**
 * The comparison of a scenario recorded more than once because its first recording differed:
 * when any recording agrees with the baseline, codex chose between the two on that release (a
 * race inside codex, measured: an empty permission grant followed by a command that codex runs
 * in 1 of 3–4 recordings of 0.161.0 and 0.162.0 and in none of 6 of 0.171.0). What a host may
 * see then includes the baseline's events; the difference stays in the report as evidence and
 * does not fail the release. When every recording differs, the first comparison stands.
 */
export function settleRecordings(comparisons: readonly PublishedComparison[]): PublishedComparison {
  const first = comparisons[0];
  if (first === undefined) return { status: 'not replayed', differences: [] };
  if (first.status !== 'differs') return first;
  const agreeing = comparisons.filter(
    (c) => c.status === 'same' || c.status === 'differs only in failure classification',
  );
  if (agreeing.length === 0) return first;
  const differing = comparisons.filter((c) => c.status === 'differs').length;
  return {
    status: 'differs in some recordings',
    differences: [
      `${differing} of ${comparisons.length} recordings differ; the rest agree with the baseline`,
      ...first.differences,
    ],
  };
}

/**
 * Replays both recordings to the adapter and compares what it published. `version` is the
 * release the candidate recording comes from (the adapter is told to accept it).
 */
export async function comparePublished(
  baseline: readonly TranscriptLine[],
  baselineVersion: string,
  candidate: readonly TranscriptLine[],
  version: string,
): Promise<PublishedComparison> {
  if (!isReplayable(baseline) || !isReplayable(candidate)) {
    return { status: 'not replayed', differences: [] };
  }
  const a = await publishReplay(baseline, baselineVersion);
  const b = await publishReplay(candidate, version);
  const failures = [
    ...(a.failure === undefined ? [] : [`baseline: ${a.failure}`]),
    ...(b.failure === undefined ? [] : [`this release: ${b.failure}`]),
  ];
  if (failures.length > 0) return { status: 'replay failed', differences: failures };
  const sigA = normalizeUsageRace(publishedSignatures(a.published));
  const sigB = normalizeUsageRace(publishedSignatures(b.published));
  const differences = lcsDiff(sigA, sigB);
  const status =
    differences.length === 0
      ? 'same'
      : lcsDiff(withoutClassification(sigA), withoutClassification(sigB)).length === 0
        ? 'differs only in failure classification'
        : 'differs';
  return { status, differences };
}
