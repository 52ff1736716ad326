import { interactionRequestSchema, type InteractionResponse } from '../../schemas/interaction.js';
import type { CheckContext, OpenedSession } from './context.js';
import type { ConformancePlan } from './plan.js';
import { currentOrder } from './recorder.js';
import { deriveResponses } from './responses.js';

/** Refs the kit answered successfully, with the emission order at that moment. */
export type AnsweredRefs = Map<string, number>;

/**
 * One pass over everything the harness can drive, recording every emission and error: a
 * completed and a failed run, each interaction kind (answered invalidly, then validly, then
 * again after the run ended), an interrupted run, a response for an unknown ref, and a run
 * left in flight when the session is disposed. The events, secrecy and errors checks judge
 * what this recorded.
 */
export async function tour(ctx: CheckContext, plan: ConformancePlan): Promise<AnsweredRefs> {
  const answered: AnsweredRefs = new Map();
  const main = await ctx.openSession();
  if (plan.can('complete'))
    await ctx.completion(await ctx.startRun(main, 'complete'), 'complete run');
  if (plan.can('fail')) await ctx.completion(await ctx.startRun(main, 'fail'), 'failing run');

  for (const scenario of plan.askScenarios) {
    await askTour(ctx, scenario, answered);
  }

  if (plan.can('hang') && plan.interruptSupported) {
    const run = await ctx.startRun(main, 'hang');
    await ctx.idle();
    await ctx.call('interrupt', () => run.run.interrupt('conformance interrupt'));
    await ctx.completion(run, 'interrupted run');
  }

  await ctx.call('respondToInteraction (unknown ref)', () =>
    main.session.respondToInteraction(ctx.marker('ref'), { kind: 'approval', decision: 'denied' }),
  );

  const inFlight = plan.can('hang') ? await ctx.startRun(main, 'hang') : undefined;
  await ctx.idle();
  await ctx.call('dispose', () => main.session.dispose());
  if (inFlight !== undefined) await ctx.completion(inFlight, 'run in flight at dispose');
  await ctx.call('startRun after dispose', () =>
    main.session.startRun({
      input: ctx.defaultInput(),
      sink: { emit: () => undefined },
      runRef: ctx.marker('run'),
    }),
  );
  // Late emissions (after completion or close) must show up before the verdict.
  await ctx.idle(40);
  return answered;
}

async function askTour(
  ctx: CheckContext,
  scenario: 'approval' | 'question',
  answered: AnsweredRefs,
): Promise<OpenedSession> {
  const opened = await ctx.openSession();
  const run = await ctx.startRun(opened, scenario);
  const { providerRef, request } = await ctx.waitForRequest(run, `${scenario} run`);
  const parsed = interactionRequestSchema.safeParse(request);
  if (parsed.success) {
    const responses = deriveResponses(parsed.data, (label) => ctx.marker(label));
    const respond = (what: string, response: unknown) =>
      ctx.call(what, () =>
        opened.session.respondToInteraction(providerRef, response as InteractionResponse),
      );
    await respond(`respondToInteraction (${scenario}, invalid)`, responses.invalid);
    const applied = await respond(`respondToInteraction (${scenario}, valid)`, responses.valid);
    if (applied.ok) answered.set(providerRef, currentOrder());
    await ctx.completion(run, `${scenario} run`);
    await respond(`respondToInteraction (${scenario}, after the run ended)`, responses.valid);
  } else {
    await ctx.call('dispose', () => opened.session.dispose());
  }
  await ctx.call('dispose', () => opened.session.dispose());
  return opened;
}
