/**
 * A session's live state from its summary, its owner and its log digest: the states the whole-
 * log test cannot reach by a real run in a few seconds (stalled, failed) are checked here.
 */
import { describe, expect, it } from 'vitest';
import type { PendingInteraction } from '@relvo-labs/agent-runtime/console';
import { liveStateOf } from '../../src/console/live-state.js';

const asked = { interactionId: 'int_1' } as PendingInteraction;
const quiet = { pendingInteractions: [], openRunIds: [] };
const busy = { pendingInteractions: [], openRunIds: ['run_1'] };
const waiting = { pendingInteractions: [asked], openRunIds: ['run_1'] };
const ready = { state: 'ready' as const };

describe('liveStateOf', () => {
  it('an owned session: waiting before running before idle', () => {
    expect(liveStateOf(ready, 'elsewhere', waiting)).toBe('waiting');
    expect(liveStateOf(ready, 'this_runtime', busy)).toBe('running');
    expect(liveStateOf(ready, 'elsewhere', quiet)).toBe('idle');
  });

  it('open work nobody holds the lease for is stalled, never running', () => {
    expect(liveStateOf(ready, 'none', busy)).toBe('stalled');
    expect(liveStateOf(ready, 'none', waiting)).toBe('stalled');
    expect(liveStateOf(ready, 'none', quiet)).toBe('idle');
  });

  it('an ended session is closed or failed whoever holds a lease', () => {
    expect(liveStateOf({ state: 'failed' }, 'none', waiting)).toBe('failed');
    expect(liveStateOf({ state: 'closed' }, 'this_runtime', quiet)).toBe('closed');
    const closedInLog = { ...busy, closedAt: '2026-12-05T00:00:00.000Z' };
    expect(liveStateOf({ state: 'closing' }, 'elsewhere', closedInLog)).toBe('closed');
  });
});
