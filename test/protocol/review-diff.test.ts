/**
 * The review's two comparisons on checked-in evidence: the schema diff restricted to what the
 * adapter reads or writes, and the normalised frame-sequence comparison.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { schemaJsonDir } from '../../scripts/lib/review/pin.js';
import {
  adapterRoots,
  diffSurfaces,
  loadSurface,
  reachable,
} from '../../scripts/lib/review/schema-diff.js';
import { compareSequences } from '../../scripts/lib/review/sequences.js';
import { CODEX_APP_SERVER_VERSION } from '../../src/constants.js';
import { loadTranscript } from '../support/replay.js';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const SCHEMAS = join(ROOT, 'fixtures', 'codex-app-server');
const surfaceOf = (version: string) => loadSurface(schemaJsonDir(SCHEMAS, version));

describe('schema diff restricted to the adapter surface', () => {
  const base = surfaceOf('0.156.1');
  const next = surfaceOf('0.171.0');

  it('starts from the methods the adapter uses and reaches the types they carry', () => {
    const roots = adapterRoots(next);
    expect(roots).toEqual(
      expect.arrayContaining([
        'InitializeParams',
        'InitializeResponse',
        'v2/ThreadStartParams',
        'v2/TurnStartParams',
        'v2/TurnInterruptParams',
        'CommandExecutionRequestApprovalParams',
        'CommandExecutionRequestApprovalResponse',
        'ToolRequestUserInputParams',
        'v2/ErrorNotification',
        'v2/TurnCompletedNotification',
      ]),
    );
    expect(reachable(next)).toContain('v2/CodexErrorInfo');
    expect(reachable(next)).not.toContain('v2/FsReadFileParams');
  });

  it("reads CodexErrorInfo's restructure as new members plus a catch-all", () => {
    const changes = diffSurfaces(base, next).types.filter((t) => t.type === 'v2/CodexErrorInfo');
    expect(changes).toHaveLength(1);
    expect(changes[0]?.change).toMatch(/^new members .*"flexUnavailable".* \+ a catch-all \(/);
    expect(changes[0]?.change).toContain('"modelNotFound"');
    expect(changes[0]?.change).toContain('"policyCapacityUnavailable"');
  });

  it('an identical schema has no changes, and a removed method the adapter sends is reported', () => {
    expect(diffSurfaces(next, next)).toEqual({
      methods: [],
      types: [],
      otherMethods: { added: [], removed: [] },
    });
    const without = {
      ...next,
      clientRequests: Object.fromEntries(
        Object.entries(next.clientRequests).filter(([m]) => m !== 'turn/interrupt'),
      ),
    };
    expect(diffSurfaces(next, without).methods).toEqual(['client request removed: turn/interrupt']);
  });
});

describe('frame-sequence comparison', () => {
  const lines = loadTranscript('approval_decline', CODEX_APP_SERVER_VERSION);

  it('a recording equals itself', () => {
    expect(compareSequences(lines, lines)).toEqual({ status: 'same', differences: [] });
  });

  it('tolerates the status/item race of approval_decline (an ignored notification moves)', () => {
    const status = lines.findIndex(
      (l, i) =>
        l.frame.method === 'thread/status/changed' &&
        lines[i - 1]?.frame.method === 'item/completed',
    );
    expect(status).toBeGreaterThan(0);
    const swapped = [...lines];
    [swapped[status - 1], swapped[status]] = [swapped[status]!, swapped[status - 1]!];
    expect(compareSequences(lines, swapped).status).toBe('same');
  });

  it('reports a failure classified differently (codexErrorInfo) without failing', () => {
    const failed = loadTranscript('http_500', CODEX_APP_SERVER_VERSION);
    const reclassified = failed.map((l) =>
      l.frame.method === 'error'
        ? {
            ...l,
            frame: {
              ...l.frame,
              params: {
                ...(l.frame.params as Record<string, unknown>),
                error: { message: 'x', codexErrorInfo: 'other' },
              },
            },
          }
        : l,
    );
    const result = compareSequences(failed, reclassified);
    expect(result.status).toBe('differs only in codexErrorInfo');
    expect(result.differences).toEqual([
      '- s2c notify error:willRetry=false:internalServerError',
      '+ s2c notify error:willRetry=false:other',
    ]);
    const dropped = compareSequences(
      failed,
      failed.filter((l) => l.frame.method !== 'error'),
    );
    expect(dropped.status).toBe('differs');
  });

  it('fails on a missing frame the adapter reads, and only notes an extra ignored one', () => {
    const noResolved = lines.filter((l) => l.frame.method !== 'serverRequest/resolved');
    const missing = compareSequences(lines, noResolved);
    expect(missing.status).toBe('differs');
    expect(missing.differences).toEqual(['- s2c notify serverRequest/resolved']);
    const extra = [...lines, { ...lines[2]!, frame: { method: 'thread/new/thing', params: {} } }];
    expect(compareSequences(lines, extra)).toEqual({
      status: 'differs only in ignored notifications',
      differences: ['~ s2c notify thread/new/thing: 0 → 1'],
    });
  });
});
