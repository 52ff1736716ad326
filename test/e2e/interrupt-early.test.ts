/**
 * An interrupt right after startRun resolved, on the REAL binary under test: on a persisted
 * thread codex answers `turn/start` before the turn is active and refuses a `turn/interrupt`
 * until `turn/started` (measured on 0.171.0: -32600 "no active turn to interrupt"). The host's
 * interrupt must still apply, on a persisted thread as on an ephemeral one.
 */
import { describe, expect, it } from 'vitest';
import { textStep } from '../../src/testing/index.js';
import { openRealCodex, slowTextStep } from '../support/real-codex.js';
import * as turns from '../support/turns.js';

describe('interrupt at once after admission, against the real binary under test', () => {
  for (const persistence of ['thread', 'ephemeral'] as const) {
    it(`${persistence}: applies, the run ends interrupted, the session stays usable`, async () => {
      const codex = await openRealCodex({ persistence });
      codex.server.enqueue(slowTextStep(20, 50, 'tick'), textStep('after'));
      const { run } = await turns.start(codex.session, 'slow', 'early');
      await run.interrupt('stopped at once');
      expect(await run.completion).toEqual({ outcome: 'interrupted', reason: 'stopped at once' });
      // the interrupted turn may not have reached the model: either step may answer this one
      expect(await turns.end(codex.session, 'next', 'next')).toEqual({ outcome: 'succeeded' });
    });
  }
});
