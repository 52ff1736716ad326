import type { JsonObject } from '../../json.js';
import { isProviderRejection } from '../../errors.js';
import { interactionRequestSchema, type InteractionResponse } from '../../schemas/interaction.js';
import type { ProviderEventPayload } from '../../schemas/events.js';
import { canon, fail, type CheckContext, type OpenedSession, type StartedRun } from './context.js';
import { APPLIES, needsAsk, type AskScenario, type CheckDefinition } from './plan.js';
import { deriveResponses, type DerivedResponses } from './responses.js';

interface Asking {
  readonly opened: OpenedSession;
  readonly run: StartedRun;
  readonly ref: string;
  readonly responses: DerivedResponses;
}

async function ask(ctx: CheckContext, scenario: AskScenario): Promise<Asking> {
  const opened = await ctx.openSession();
  const run = await ctx.startRun(opened, scenario);
  const { providerRef, request } = await ctx.waitForRequest(run, `${scenario} run`);
  const parsed = interactionRequestSchema.safeParse(request);
  if (!parsed.success)
    fail(`the ${scenario} run raised a request that fails the InteractionRequest schema`);
  return {
    opened,
    run,
    ref: providerRef,
    responses: deriveResponses(parsed.data, (label) => ctx.marker(label)),
  };
}

function respond(ctx: CheckContext, a: Asking, what: string, response: JsonObject) {
  return ctx.call(`respondToInteraction (${what})`, () =>
    a.opened.session.respondToInteraction(a.ref, response as InteractionResponse),
  );
}

/** The run's emissions with providerRefs blanked, for comparing two plays of one scenario. */
function trace(run: StartedRun): string[] {
  return run.sink
    .payloads()
    .map((p: ProviderEventPayload) => canon('providerRef' in p ? { ...p, providerRef: '' } : p));
}

async function forEachAsk(
  ctx: CheckContext,
  scenarios: readonly AskScenario[],
  body: (s: AskScenario) => Promise<void>,
): Promise<void> {
  for (const scenario of scenarios) {
    try {
      await body(scenario);
    } catch (error) {
      if (error instanceof Error) error.message = `${scenario}: ${error.message}`;
      throw error;
    }
  }
}

export const interactionChecks: readonly CheckDefinition[] = [
  {
    id: 'interactions.invalid-response',
    area: 'interactions',
    title:
      'an invalid response rejects with a ProviderRejection and leaves the interaction answerable',
    applies: needsAsk,
    async run(ctx, plan) {
      await forEachAsk(ctx, plan.askScenarios, async (scenario) => {
        const a = await ask(ctx, scenario);
        const driver = ctx.subject.driver;
        const before = driver.effects().responses;
        ctx.rejection('invalid response', await respond(ctx, a, 'invalid', a.responses.invalid));
        await ctx.idle();
        if (driver.effects().responses !== before) fail('the invalid response had a native effect');
        if (a.run.outcome !== undefined) fail('the invalid response ended the run');
        ctx.ok(
          'valid response after an invalid one',
          await respond(ctx, a, 'valid after invalid', a.responses.valid),
        );
        const termination = await ctx.completion(a.run, `${scenario} run`);
        if (termination.outcome !== 'succeeded')
          fail(`the answered run ended ${termination.outcome}; expected succeeded`);
        if (driver.effects().responses !== before + 1)
          fail('the valid answer was not delivered natively exactly once');
      });
    },
  },
  {
    id: 'interactions.repeat-response',
    area: 'interactions',
    title: 'repeating an applied response is a no-op; a conflicting second answer rejects',
    applies: needsAsk,
    async run(ctx, plan) {
      await forEachAsk(ctx, plan.askScenarios, async (scenario) => {
        // Reference play: answered once.
        const reference = await ask(ctx, scenario);
        ctx.ok('valid response', await respond(ctx, reference, 'valid', reference.responses.valid));
        await ctx.completion(reference.run, `${scenario} run (answered once)`);
        await ctx.idle();
        // Test play: answered, repeated at once, contradicted, repeated after the run ended.
        const driver = ctx.subject.driver;
        const a = await ask(ctx, scenario);
        const before = driver.effects().responses;
        const first = ctx.start('respondToInteraction (valid)', () =>
          a.opened.session.respondToInteraction(a.ref, a.responses.valid as InteractionResponse),
        );
        const repeat = ctx.start('respondToInteraction (exact repeat)', () =>
          a.opened.session.respondToInteraction(a.ref, a.responses.valid as InteractionResponse),
        );
        ctx.ok('valid response', await ctx.settle('respondToInteraction (valid)', first));
        ctx.ok(
          'an exact repeat of the applied response',
          await ctx.settle('respondToInteraction (exact repeat)', repeat),
        );
        if (a.responses.conflicting !== undefined) {
          const conflict = await respond(ctx, a, 'conflicting', a.responses.conflicting);
          ctx.rejection('a conflicting second answer', conflict);
        }
        await ctx.completion(a.run, `${scenario} run`);
        await ctx.idle();
        const effects = driver.effects().responses - before;
        if (effects !== 1)
          fail(
            `one answer and its repeats had ${String(effects)} native effect(s); expected exactly 1`,
          );
        const expected = trace(reference.run);
        const actual = trace(a.run);
        if (actual.length !== expected.length || actual.some((t, i) => t !== expected[i])) {
          fail(
            `the repeated response changed what the run emitted (${String(actual.length)} emission(s) instead of ${String(expected.length)})`,
          );
        }
      });
    },
  },
  {
    id: 'interactions.repeat-after-run-end',
    area: 'interactions',
    title:
      'an exact repeat of an applied response after the run ended is still a no-op, not a refusal',
    applies: needsAsk,
    async run(ctx, plan) {
      await forEachAsk(ctx, plan.askScenarios, async (scenario) => {
        const a = await ask(ctx, scenario);
        ctx.ok('valid response', await respond(ctx, a, 'valid', a.responses.valid));
        await ctx.completion(a.run, `${scenario} run`);
        await ctx.idle();
        const before = ctx.subject.driver.effects().responses;
        // docs/spi.md §6/§15: the runtime's exact retry may land after the run ended; a ProviderRejection
        // would be recorded as "never applied" although the answer was delivered.
        const repeat = await respond(ctx, a, 'exact repeat after the run ended', a.responses.valid);
        if (!repeat.ok) {
          const how = isProviderRejection(repeat.error)
            ? `a ProviderRejection (${repeat.error.agentError.code})`
            : 'an unknown outcome';
          fail(
            `an exact repeat of the applied response after the run ended was refused with ${how}; it must be a no-op`,
          );
        }
        await ctx.idle();
        if (ctx.subject.driver.effects().responses !== before)
          fail('the repeat after the run ended had a native effect');
      });
    },
  },
  {
    id: 'interactions.unknown-ref',
    area: 'interactions',
    title: 'a response for an unknown ref rejects with unknown_interaction or resolves as a no-op',
    applies: () => APPLIES,
    async run(ctx, plan) {
      const opened = await ctx.openSession();
      const probe = async (what: string): Promise<void> => {
        const before = ctx.subject.driver.effects().responses;
        const result = await ctx.call(what, () =>
          opened.session.respondToInteraction(ctx.marker('ref'), {
            kind: 'approval',
            decision: 'denied',
          }),
        );
        if (!result.ok) ctx.rejection(what, result, ['unknown_interaction']);
        await ctx.idle();
        if (ctx.subject.driver.effects().responses !== before) fail(`${what} had a native effect`);
      };
      await probe('respondToInteraction (unknown ref, idle session)');
      const scenario = plan.askScenarios[0];
      if (scenario !== undefined) {
        const run = await ctx.startRun(opened, scenario);
        await ctx.waitForRequest(run, `${scenario} run`);
        await probe('respondToInteraction (unknown ref, interaction pending)');
        if (run.outcome !== undefined) fail('a response for an unknown ref ended the pending run');
      }
    },
  },
  {
    id: 'interactions.after-run-end',
    area: 'interactions',
    title: 'answering an interaction of a run that has ended does not revive the run',
    applies: (plan) => needsAsk(plan),
    async run(ctx, plan) {
      await forEachAsk(ctx, plan.askScenarios, async (scenario) => {
        const a = await ask(ctx, scenario);
        if (plan.interruptSupported) {
          ctx.ok(
            'interrupt',
            await ctx.call('interrupt', () => a.run.run.interrupt('conformance interrupt')),
          );
        } else {
          ctx.ok('dispose', await ctx.call('dispose', () => a.opened.session.dispose()));
        }
        await ctx.completion(a.run, `${scenario} run ended while waiting`);
        await ctx.idle();
        const driver = ctx.subject.driver;
        const before = driver.effects();
        const emitted = a.run.sink.emissions.length;
        const late = await respond(ctx, a, 'after the run ended', a.responses.valid);
        if (!late.ok) ctx.rejection('a response after the run ended', late);
        await ctx.idle();
        const after = driver.effects();
        if (after.responses !== before.responses)
          fail('a response after the run ended had a native effect');
        if (after.runs !== before.runs) fail('a response after the run ended started a native run');
        if (a.run.sink.emissions.length !== emitted)
          fail('a response after the run ended made the run emit again');
      });
    },
  },
];
