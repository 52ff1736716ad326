/**
 * Replays a transcript recorded from the real codex binary against the adapter through a
 * fake transport. Server-to-client frames are pushed in recorded order; each recorded
 * client-to-server frame is a checkpoint: replay waits until the adapter has written the
 * matching frame (same method, or a reply to the same server request id). Replies to the
 * adapter's requests are re-addressed to the ids the adapter actually used.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODEX_APP_SERVER_VERSION } from '../../src/constants.js';
import {
  parseTranscript,
  restorePlaceholders,
  type PlaceholderValues,
  type TranscriptLine,
} from '../../src/testing/index.js';
import type { FakeTransport } from './fake-transport.js';
import { TRANSCRIPTS_DIR } from './paths.js';

export type { TranscriptLine };

export function transcriptPath(scenario: string, version = CODEX_APP_SERVER_VERSION): string {
  return join(TRANSCRIPTS_DIR, version, `${scenario}.jsonl`);
}

/** A recorded transcript, read with the `./testing` reader (format and order checked). */
export function loadTranscript(
  scenario: string,
  version = CODEX_APP_SERVER_VERSION,
): TranscriptLine[] {
  return parseTranscript(readFileSync(transcriptPath(scenario, version), 'utf8'));
}

/**
 * The first thread/status/changed that directly follows an item/completed (`status`, -1 when none)
 * and a copy of `lines` with the two swapped: the status/item race the adapter tolerates.
 */
export function statusItemRace(lines: readonly TranscriptLine[]): {
  status: number;
  swapped: TranscriptLine[];
} {
  const status = lines.findIndex(
    (l, i) =>
      l.frame.method === 'thread/status/changed' && lines[i - 1]?.frame.method === 'item/completed',
  );
  const swapped = [...lines];
  if (status > 0) [swapped[status - 1], swapped[status]] = [swapped[status]!, swapped[status - 1]!];
  return { status, swapped };
}

/** The values a replay puts where the recording holds placeholders. */
export function replayPlaceholders(workspace: string): PlaceholderValues {
  return {
    workspace,
    home: '/home/replay',
    codexHome: '/home/replay/.codex',
    hostname: 'replay-host',
  };
}

function isRequest(f: Record<string, unknown>): boolean {
  return Object.hasOwn(f, 'method') && Object.hasOwn(f, 'id');
}
function isReply(f: Record<string, unknown>): boolean {
  return !Object.hasOwn(f, 'method') && Object.hasOwn(f, 'id');
}

export interface ReplayOptions {
  readonly workspace: string;
  /** Stop before this seq (exclusive); default: the whole transcript. */
  readonly untilSeq?: number;
  /** Rewrite a recorded s2c frame before it is pushed (return undefined to skip it). */
  readonly rewrite?: (
    frame: Record<string, unknown>,
    line: TranscriptLine,
  ) => Record<string, unknown> | undefined;
  /** Event-loop turns to wait for one adapter frame before failing. */
  readonly maxTurns?: number;
}

export interface ReplayResult {
  /** Recorded client id → the id the adapter used. */
  readonly idMap: ReadonlyMap<number | string, number | string>;
  /** The adapter frames matched to each recorded c2s checkpoint, in order. */
  readonly matched: readonly Record<string, unknown>[];
}

export async function replay(
  transport: FakeTransport,
  lines: readonly TranscriptLine[],
  options: ReplayOptions,
): Promise<ReplayResult> {
  const placeholders = replayPlaceholders(options.workspace);
  const idMap = new Map<number | string, number | string>();
  const matched: Record<string, unknown>[] = [];
  const maxTurns = options.maxTurns ?? 2000;
  let cursor = 0;

  const waitFor = async (line: TranscriptLine): Promise<Record<string, unknown>> => {
    const want = line.frame;
    for (let turn = 0; turn < maxTurns; turn += 1) {
      while (cursor < transport.sent.length) {
        const got = transport.sent[cursor++]!;
        if (isReply(want) ? isReply(got) && got.id === want.id : got.method === want.method) {
          return got;
        }
      }
      await new Promise<void>((r) => setImmediate(r));
    }
    const what = isReply(want)
      ? `a reply to server request ${String(want.id)}`
      : String(want.method);
    throw new Error(`replay: adapter never wrote ${what} (transcript seq ${line.seq})`);
  };

  for (const line of lines) {
    if (options.untilSeq !== undefined && line.seq >= options.untilSeq) break;
    if (line.dir === 'c2s') {
      const got = await waitFor(line);
      matched.push(got);
      if (isRequest(line.frame))
        idMap.set(line.frame.id as number | string, got.id as number | string);
      continue;
    }
    let frame = restorePlaceholders(line.frame, placeholders);
    if (isReply(frame)) {
      const actual = idMap.get(frame.id as number | string);
      if (actual === undefined)
        throw new Error(`replay: reply ${String(frame.id)} to an unmatched request`);
      frame = { ...frame, id: actual };
    }
    const rewritten = options.rewrite ? options.rewrite(frame, line) : frame;
    if (rewritten !== undefined) {
      transport.push(rewritten);
      await transport.drained();
    }
  }
  return { idMap, matched };
}
