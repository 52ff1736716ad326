/**
 * The inbound union against the real binary: every notification codex wrote in a recorded
 * transcript (every release, every scenario) whose method has a schema decodes to that member,
 * never to `unknown`, with the scope the wire carried; anything else keeps its scope.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeNotification, INBOUND_METHODS } from '../../src/protocol/inbound.js';
import { TRANSCRIPTS_DIR } from '../support/paths.js';

interface Recorded {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

function recordedNotifications(): Recorded[] {
  const out: Recorded[] = [];
  for (const release of readdirSync(TRANSCRIPTS_DIR)) {
    const dir = join(TRANSCRIPTS_DIR, release);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
      for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        const entry = JSON.parse(line) as { dir?: string; frame?: Record<string, unknown> };
        const frame = entry.frame;
        if (entry.dir !== 's2c' || frame === undefined || 'id' in frame) continue;
        if (typeof frame['method'] !== 'string') continue;
        out.push({
          method: frame['method'],
          params: (frame['params'] ?? {}) as Record<string, unknown>,
        });
      }
    }
  }
  return out;
}

const known: ReadonlySet<string> = new Set(INBOUND_METHODS);

describe('decodeNotification on recorded frames', () => {
  const frames = recordedNotifications();

  it('reads recordings of every method it has a schema for', () => {
    const seen = new Set(frames.map((f) => f.method));
    expect(INBOUND_METHODS.filter((m) => !seen.has(m))).toEqual([]);
  });

  it('decodes every recorded frame of a known method to its own member, with its scope', () => {
    let checked = 0;
    for (const { method, params } of frames) {
      if (!known.has(method)) continue;
      const decoded = decodeNotification(method, params);
      expect(decoded.method, method).toBe(method);
      expect(decoded.threadId).toBe(params['threadId']);
      const turn = params['turn'] as { id?: unknown } | undefined;
      if ('turnId' in decoded) expect(decoded.turnId).toBe(params['turnId'] ?? turn?.id);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('an unknown method keeps the scope it carries; one without a scope has none', () => {
    const other = frames.find(
      (f) => !known.has(f.method) && typeof f.params['turnId'] === 'string',
    );
    expect(other).toBeDefined();
    expect(decodeNotification(other!.method, other!.params)).toMatchObject({
      method: 'unknown',
      threadId: other!.params['threadId'],
      turnId: other!.params['turnId'],
    });
    expect(decodeNotification('item/agentMessage/delta', { delta: 'x' })).toEqual({
      method: 'unknown',
      wireMethod: 'item/agentMessage/delta',
      threadId: undefined,
      turnId: undefined,
    });
  });
});
