import {
  providerRunTerminationSchema,
  type ProviderRunTermination,
} from '../../schemas/termination.js';
import { canon, fail, type CheckContext, type StartedRun } from './context.js';
import { APPLIES, needs, type CheckDefinition } from './plan.js';
import { recorder } from './recorder.js';

const MAX_PROBED_CONCURRENCY = 16;

function parseTermination(value: ProviderRunTermination, what: string): ProviderRunTermination {
  const parsed = providerRunTerminationSchema.safeParse(value);
  if (!parsed.success) {
    const paths = parsed.error.issues
      .slice(0, 3)
      .map((i) => i.path.map(String).join('.') || '(root)');
    fail(
      `${what}: the termination does not parse as a ProviderRunTermination (${paths.join(', ')})`,
    );
  }
  return parsed.data;
}

/** Completion must be one promise with one value, however often it is read. */
async function settledOnce(
  ctx: CheckContext,
  started: StartedRun,
  what: string,
): Promise<ProviderRunTermination> {
  const first = started.run.completion;
  if (started.run.completion !== first)
    fail(`${what}: run.completion is a different promise on each read`);
  const termination = parseTermination(await ctx.completion(started, what), what);
  await ctx.idle();
  const again = await ctx.settle(
    `${what}: completion read again`,
    Promise.resolve(started.run.completion),
  );
  // Both reads parsed: a member left to its schema default is not a different termination.
  const reread = again.ok ? providerRunTerminationSchema.safeParse(again.value) : undefined;
  if (reread?.success !== true || canon(reread.data) !== canon(termination)) {
    fail(`${what}: completion settled with a different termination when read again`);
  }
  return termination;
}

async function interruptAndSettle(
  ctx: CheckContext,
  started: StartedRun,
  what: string,
): Promise<ProviderRunTermination> {
  ctx.ok(
    `interrupt (${what})`,
    await ctx.call(`interrupt (${what})`, () => started.run.interrupt('conformance interrupt')),
  );
  return ctx.completion(started, what);
}

export const runChecks: readonly CheckDefinition[] = [
  {
    id: 'run.concurrency-limit',
    area: 'run',
    title: 'startRun beyond maxConcurrentRunsPerSession rejects with a ProviderRejection',
    applies: (plan) => needs(plan, 'hang'),
    async run(ctx) {
      const max = ctx.descriptor.run.maxConcurrentRunsPerSession;
      if (max > MAX_PROBED_CONCURRENCY)
        fail(`the kit probes at most ${String(MAX_PROBED_CONCURRENCY)} concurrent runs`);
      const opened = await ctx.openSession();
      for (let i = 0; i < max; i += 1) await ctx.startRun(opened, 'hang');
      const before = ctx.subject.driver.effects().runs;
      const extra = await ctx.call('startRun beyond the concurrency limit', () =>
        opened.session.startRun({
          input: ctx.script('hang'),
          sink: recorder('run (over the limit)'),
          runRef: ctx.marker('run'),
        }),
      );
      ctx.rejection('startRun beyond the concurrency limit', extra);
      await ctx.idle();
      if (ctx.subject.driver.effects().runs !== before)
        fail('a native run was started beyond the concurrency limit');
    },
  },
  {
    id: 'run.refusals-async',
    area: 'run',
    title:
      'refusals from startRun, respondToInteraction and interrupt are rejected promises, never synchronous throws',
    applies: () => APPLIES,
    async run(ctx, plan) {
      const opened = await ctx.openSession();
      const session = opened.session;
      // Each call goes through ctx.call, which fails the check on a synchronous throw.
      await ctx.call('respondToInteraction (unknown ref)', () =>
        session.respondToInteraction(ctx.marker('ref'), { kind: 'approval', decision: 'denied' }),
      );
      await ctx.call('respondToInteraction (malformed response)', () =>
        session.respondToInteraction(ctx.marker('ref'), { kind: 'nonsense' } as never),
      );
      if (plan.can('hang')) {
        const run = await ctx.startRun(opened, 'hang');
        await ctx.call('startRun beyond the concurrency limit', () =>
          session.startRun({
            input: ctx.script('hang'),
            sink: recorder('run (refused)'),
            runRef: ctx.marker('run'),
          }),
        );
        if (!plan.interruptSupported) {
          ctx.rejection(
            'interrupt (unsupported)',
            await ctx.call('interrupt (unsupported)', () => run.run.interrupt()),
          );
        }
      }
      ctx.ok('dispose', await ctx.call('dispose', () => session.dispose()));
      await ctx.call('startRun after dispose', () =>
        session.startRun({
          input: ctx.script('complete'),
          sink: recorder('run (refused)'),
          runRef: ctx.marker('run'),
        }),
      );
      for (const started of opened.runs) {
        await ctx.completion(started, 'run at dispose');
        await ctx.call('interrupt after termination', () => started.run.interrupt());
      }
    },
  },
  {
    id: 'run.start-idempotent',
    area: 'run',
    title: 'an exact retry of startRun with the same runRef does not start a second native run',
    applies: (plan) => needs(plan, 'hang'),
    async run(ctx) {
      const opened = await ctx.openSession();
      const before = ctx.subject.driver.effects().runs;
      const request = {
        input: ctx.script('hang'),
        sink: recorder('run (retried)'),
        runRef: ctx.marker('run'),
      };
      const first = ctx.start('startRun', () => opened.session.startRun(request));
      const retry = ctx.start('startRun (concurrent exact retry)', () =>
        opened.session.startRun(request),
      );
      const run = ctx.ok('startRun', await ctx.settle('startRun', first));
      ctx.track(opened, {
        runRef: request.runRef,
        sink: request.sink,
        run,
        input: request.input,
        outcome: undefined,
      });
      ctx.ok(
        'startRun (concurrent exact retry)',
        await ctx.settle('startRun (concurrent exact retry)', retry),
      );
      await ctx.idle();
      ctx.ok(
        'startRun (exact retry after it resolved)',
        await ctx.call('startRun (exact retry after it resolved)', () =>
          opened.session.startRun(request),
        ),
      );
      await ctx.idle();
      const started = ctx.subject.driver.effects().runs - before;
      if (started !== 1)
        fail(
          `three startRun calls with one runRef started ${String(started)} native run(s); expected 1`,
        );
    },
  },
  {
    id: 'run.completion-once',
    area: 'run',
    title: 'completion settles exactly once with a valid ProviderRunTermination',
    applies: (plan) => needs(plan, 'complete'),
    async run(ctx, plan) {
      const opened = await ctx.openSession();
      const done = await settledOnce(ctx, await ctx.startRun(opened, 'complete'), 'completing run');
      if (done.outcome !== 'succeeded')
        fail(`the completing run ended ${done.outcome}; expected succeeded`);
      if (plan.can('fail')) {
        const failed = await settledOnce(ctx, await ctx.startRun(opened, 'fail'), 'failing run');
        if (failed.outcome !== 'failed')
          fail(`the failing run ended ${failed.outcome}; expected failed`);
      }
      if (plan.can('hang') && plan.interruptSupported) {
        const hanging = await ctx.startRun(opened, 'hang');
        await ctx.idle();
        ctx.ok(
          'interrupt',
          await ctx.call('interrupt', () => hanging.run.interrupt('conformance interrupt')),
        );
        await settledOnce(ctx, hanging, 'interrupted run');
      }
    },
  },
  {
    id: 'run.interrupt-idempotent',
    area: 'run',
    title: 'interrupt() is idempotent, a no-op after termination, and rejected when unsupported',
    applies: (plan) => needs(plan, 'hang'),
    async run(ctx, plan) {
      const opened = await ctx.openSession();
      const started = await ctx.startRun(opened, 'hang');
      await ctx.idle();
      const driver = ctx.subject.driver;
      const before = driver.effects().interrupts;
      if (!plan.interruptSupported) {
        ctx.rejection(
          'interrupt (declared unsupported)',
          await ctx.call('interrupt (declared unsupported)', () => started.run.interrupt()),
        );
        await ctx.idle();
        if (started.outcome !== undefined) fail('an unsupported interrupt ended the run');
        return;
      }
      const first = ctx.start('interrupt (1st concurrent call)', () =>
        started.run.interrupt('conformance interrupt'),
      );
      const second = ctx.start('interrupt (2nd concurrent call)', () =>
        started.run.interrupt('conformance interrupt'),
      );
      ctx.ok(
        'interrupt (1st concurrent call)',
        await ctx.settle('interrupt (1st concurrent call)', first),
      );
      ctx.ok(
        'interrupt (2nd concurrent call)',
        await ctx.settle('interrupt (2nd concurrent call)', second),
      );
      await ctx.completion(started, 'interrupted run');
      const afterEnd = await ctx.call('interrupt after termination', () =>
        started.run.interrupt('conformance interrupt'),
      );
      ctx.ok('interrupt after termination', afterEnd);
      await ctx.idle();
      const effects = driver.effects().interrupts - before;
      if (effects !== 1)
        fail(
          `three interrupt() calls had ${String(effects)} native interrupt effect(s); expected exactly 1`,
        );
    },
  },
  {
    id: 'run.interrupt-outcome',
    area: 'run',
    title:
      'after interrupt() the outcome is interrupted, or succeeded/failed if completion won the race',
    applies: (plan) =>
      plan.interruptSupported
        ? needs(plan, 'hang')
        : {
            applies: false,
            reason: 'not applicable: the descriptor declares interrupt unsupported',
          },
    async run(ctx, plan) {
      const opened = await ctx.openSession();
      const hanging = await ctx.startRun(opened, 'hang');
      await ctx.idle();
      const outcome = parseTermination(
        await interruptAndSettle(ctx, hanging, 'interrupted run'),
        'interrupted run',
      );
      if (outcome.outcome !== 'interrupted') {
        fail(
          `a run that was still streaming ended ${outcome.outcome} after interrupt(); expected interrupted`,
        );
      }
      const ask = plan.askScenarios[0];
      if (ask !== undefined) {
        const waiting = await ctx.startRun(opened, ask);
        await ctx.waitForRequest(waiting, `${ask} run`);
        parseTermination(
          await interruptAndSettle(ctx, waiting, `${ask} run interrupted while waiting`),
          `${ask} run`,
        );
      }
    },
  },
];
