/**
 * Frame templates for the session fuzz: every notification and server request the real binary
 * sent in the recorded transcripts, with its thread id replaced by `{{H}}`, its turn ids by
 * `{{T}}` and its request id removed, so a case can re-address it to its own session, a foreign
 * thread, a live turn, a finished turn or a turn that never existed.
 */
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadTranscript, transcriptPath } from '../support/replay.js';

export interface FrameTemplate {
  readonly scenario: string;
  readonly method: string;
  /** The frame as JSON text with `{{H}}`/`{{T}}` placeholders. */
  readonly text: string;
  readonly serverRequest: boolean;
}

function scenarios(): string[] {
  return readdirSync(dirname(transcriptPath('text_turn')))
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => f.slice(0, -'.jsonl'.length))
    .sort();
}

let cached: FrameTemplate[] | undefined;

export function frameTemplates(): FrameTemplate[] {
  if (cached !== undefined) return cached;
  const out: FrameTemplate[] = [];
  for (const scenario of scenarios()) {
    const lines = loadTranscript(scenario);
    const ids = new Set<string>();
    for (const line of lines) {
      const result = (
        line.frame as { result?: { thread?: { id?: unknown }; turn?: { id?: unknown } } }
      ).result;
      for (const id of [result?.thread?.id, result?.turn?.id])
        if (typeof id === 'string') ids.add(id);
    }
    const threadIds = new Set(
      lines.flatMap((l) => {
        const id = (l.frame as { result?: { thread?: { id?: unknown } } }).result?.thread?.id;
        return typeof id === 'string' ? [id] : [];
      }),
    );
    for (const line of lines) {
      const frame = line.frame;
      if (line.dir !== 's2c' || typeof frame.method !== 'string') continue;
      const serverRequest = Object.hasOwn(frame, 'id');
      const { id: _id, ...rest } = frame;
      let text = JSON.stringify(serverRequest ? rest : frame);
      for (const id of ids) text = text.split(id).join(threadIds.has(id) ? '{{H}}' : '{{T}}');
      out.push({ scenario, method: frame.method, text, serverRequest });
    }
  }
  cached = out;
  return out;
}
