/**
 * Envelopes of one session as the runtime records them, for the timeline's rendering tests:
 * each is checked against the runtime's envelope schema when built, so a shape drawn here is a
 * shape the log can hold. Tool details, plans, diffs and reasoning parts follow what the codex
 * adapter publishes (its tool-activity contract and its `codex` extension kinds).
 */
import type { JsonObject } from '@relvo-labs/agent-provider';
import type { z } from 'zod';
import {
  eventEnvelopeSchema,
  eventPayloadSchema,
  type EventEnvelope,
  type EventPayload,
} from '../../src/envelope.js';

export type PayloadInput = z.input<typeof eventPayloadSchema>;

export const SESSION = 'ses_timeline';
export const RUN = 'run_first';

export class Log {
  readonly envelopes: EventEnvelope[] = [];

  /** `runId` null: a session-level record. */
  add(payload: PayloadInput, runId: string | null = RUN): EventEnvelope {
    const sequence = this.envelopes.length + 1;
    const envelope = eventEnvelopeSchema.parse({
      eventId: `evt_${String(sequence).padStart(4, '0')}`,
      sessionId: SESSION,
      ...(runId === null ? {} : { runId }),
      sequence,
      occurredAt: new Date(Date.UTC(2026, 11, 5, 8, 0, sequence)).toISOString(),
      wireVersion: '0.8',
      payload,
    });
    this.envelopes.push(envelope);
    return envelope;
  }
}

export const PATCH = [
  'diff --git a/notes/hello.txt b/notes/hello.txt',
  'new file mode 100644',
  'index 0000000..7b57bd2',
  '--- /dev/null',
  '+++ b/notes/hello.txt',
  '@@ -0,0 +1,2 @@',
  '+LINE ONE CHANGED',
  '+LINE TWO',
  '\\ No newline at end of file',
  'diff --git a/src/app.ts b/src/app.ts',
  'index 1111111..2222222 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -1,3 +1,2 @@',
  ' const a = 1;',
  '-const b = 2;',
  '+const b = 3;',
  // a removed line that reads like a file header stays a removed line
  '---- not a header',
  '',
].join('\n');

export function codex(kind: string, data: Record<string, unknown>): EventPayload {
  return eventPayloadSchema.parse({
    type: 'run.extension',
    namespace: 'codex',
    kind,
    data,
  });
}

/** A command's tool activity in `phase`, with `detail` as codex reports it. */
export function commandActivity(
  phase: 'invoked' | 'succeeded' | 'failed',
  detail: JsonObject,
): PayloadInput {
  return { type: 'run.tool_activity', toolName: 'command', phase, detail };
}

interface DiffFile {
  readonly path: string;
  readonly change: string;
  readonly added: number;
  readonly removed: number;
}

/** A turn's diff of `files` as codex reports it, its totals their sums, with its patch or why not. */
export function diffOf(
  files: readonly DiffFile[],
  patch: { patch: string } | { patchWithheld: string },
): EventPayload {
  const added = files.reduce((n, f) => n + f.added, 0);
  const removed = files.reduce((n, f) => n + f.removed, 0);
  return codex('diff', { files, added, removed, ...patch });
}
