/**
 * A steer right after startRun resolved, on the REAL binary under test: on a persisted thread
 * codex answers `turn/start` before the turn is active (see interrupt-early.test.ts). The host's
 * steer must reach the turn, on a persisted thread as on an ephemeral one: the model's second
 * request carries the steered text.
 */
import { describe, expect, it } from 'vitest';
import { textStep } from '../../src/testing/index.js';
import { textInput } from '../support/provider-harness.js';
import { openRealCodex, slowTextStep } from '../support/real-codex.js';
import * as turns from '../support/turns.js';

describe('steer at once after admission, against the real binary under test', () => {
  for (const persistence of ['thread', 'ephemeral'] as const) {
    it(`${persistence}: accepted, and the model hears it in the same run`, async () => {
      const codex = await openRealCodex({ persistence });
      codex.server.enqueue(slowTextStep(20, 50, 'tick'), textStep('steered'));
      const { run } = await turns.start(codex.session, 'slow', 'early');
      await run.steer!(textInput('STEER-TEXT'));
      expect(await run.completion).toEqual({ outcome: 'succeeded' });
      const bodies = codex.server.requests.map((r) => JSON.stringify(r.body));
      expect(bodies.some((b) => b.includes('STEER-TEXT'))).toBe(true);
    });
  }
});
