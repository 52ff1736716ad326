import type { ProviderRun } from '../../interfaces.js';
import type { TurnInput } from '../../schemas/turn.js';
import { fail } from './context.js';
import { needs, type CheckDefinition } from './plan.js';

const STEER_INPUT: TurnInput = { parts: [{ type: 'text', text: 'conformance steer' }] };

function hasSteer(run: ProviderRun): boolean {
  return typeof run.steer === 'function';
}

/** Calls the run's steer; only used once `hasSteer` holds. */
function steer(run: ProviderRun): Promise<void> {
  return run.steer?.(STEER_INPUT) ?? Promise.resolve();
}

export const steerChecks: readonly CheckDefinition[] = [
  {
    id: 'run.steer',
    area: 'run',
    title:
      'steer() adds input to an active run when declared; it is a ProviderRejection once the run ended or when undeclared',
    applies: (plan) => needs(plan, 'hang', 'complete'),
    async run(ctx, plan) {
      const opened = await ctx.openSession();
      const declared = plan.descriptor.run.steer;
      const done = await ctx.startRun(opened, 'complete');
      await ctx.completion(done, 'completing run');
      if (declared && !hasSteer(done.run)) fail('run.steer is declared but the run has no steer');
      if (hasSteer(done.run)) {
        ctx.rejection(
          'steer after termination',
          await ctx.call('steer after termination', () => steer(done.run)),
        );
      }
      const active = await ctx.startRun(opened, 'hang');
      await ctx.idle();
      if (declared) {
        ctx.ok('steer (active run)', await ctx.call('steer (active run)', () => steer(active.run)));
        await ctx.idle();
      } else if (hasSteer(active.run)) {
        // an undeclared steer may be absent; present, it refuses definitely
        ctx.rejection(
          'steer (declared unsupported)',
          await ctx.call('steer (declared unsupported)', () => steer(active.run)),
          ['capability_unsupported'],
        );
      }
      if (plan.interruptSupported) {
        ctx.ok(
          'interrupt after steer',
          await ctx.call('interrupt after steer', () => active.run.interrupt('conformance')),
        );
        await ctx.completion(active, 'steered run');
      }
    },
  },
];
