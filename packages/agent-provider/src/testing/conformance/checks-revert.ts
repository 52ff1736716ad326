/**
 * The check for taking a session's turns back (descriptor `session.revert`; docs/spi.md §6).
 */
import type { ProviderSession } from '../../interfaces.js';
import { revertResultSchema } from '../../schemas/session-ops.js';
import { fail } from './context.js';
import { needs, type CheckDefinition } from './plan.js';

/** Calls the session's revert; only used once the session has one. */
function revert(session: ProviderSession, turns: number): Promise<unknown> {
  return session.revert?.({ turns }) ?? Promise.resolve();
}

export const revertChecks: readonly CheckDefinition[] = [
  {
    id: 'session.revert',
    area: 'session',
    title:
      'revert exists exactly when declared; it takes back a finished turn, and refuses beyond the history, while a run is active and a malformed count',
    applies: (plan) => {
      if (!plan.descriptor.session.revert)
        return { applies: false, reason: 'not applicable: revert is not declared' };
      return needs(plan, 'complete', 'hang');
    },
    async run(ctx, plan) {
      const opened = await ctx.openSession();
      if (typeof opened.session.revert !== 'function')
        fail('the descriptor declares revert but the session has no revert');
      const done = await ctx.startRun(opened, 'complete');
      await ctx.completion(done, 'the run to revert');
      const result = ctx.ok(
        'revert (one finished turn)',
        await ctx.call('revert (one finished turn)', () => revert(opened.session, 1)),
      );
      const parsed = revertResultSchema.safeParse(result);
      if (!parsed.success || parsed.data.turns !== 1)
        fail('revert resolved with something other than a result for one turn');
      // that was the only turn: nothing is left to take back
      ctx.rejection(
        'revert (beyond the history)',
        await ctx.call('revert (beyond the history)', () => revert(opened.session, 1)),
        ['invalid_request'],
      );
      ctx.rejection(
        'revert (zero turns)',
        await ctx.call('revert (zero turns)', () => revert(opened.session, 0)),
        ['invalid_request'],
      );
      const active = await ctx.startRun(opened, 'hang');
      await ctx.idle();
      ctx.rejection(
        'revert (run active)',
        await ctx.call('revert (run active)', () => revert(opened.session, 1)),
        ['illegal_state_transition'],
      );
      if (plan.interruptSupported) {
        ctx.ok(
          'interrupt after a refused revert',
          await ctx.call('interrupt after a refused revert', () =>
            active.run.interrupt('conformance'),
          ),
        );
        await ctx.completion(active, 'the run a revert was refused during');
      }
    },
  },
];
