import type { ProviderSession } from '../../interfaces.js';
import type { JsonObject } from '../../json.js';
import { fail, type CheckContext } from './context.js';
import { APPLIES, needs, type CheckDefinition } from './plan.js';
import { recorder } from './recorder.js';
import { tour } from './tour.js';

async function disposeOk(ctx: CheckContext, session: ProviderSession, what: string): Promise<void> {
  ctx.ok(what, await ctx.call(what, () => session.dispose()));
}

export const sessionChecks: readonly CheckDefinition[] = [
  {
    id: 'session.unknown-options',
    area: 'session',
    title:
      'createSession with an unknown option key rejects with invalid_request before any side effect',
    applies: () => APPLIES,
    async run(ctx) {
      const driver = ctx.subject.driver;
      const before = driver.effects().sessions;
      const key = ctx.marker('option');
      const sink = recorder('session (unknown options)');
      const base = ctx.subject.sessionInit();
      const value = ctx.marker('value');
      const options: JsonObject = { ...base.options, [key]: value };
      const result = await ctx.call('createSession with an unknown option key', () =>
        ctx.subject.provider.createSession(ctx.init(sink, options)),
      );
      if (result.ok) {
        await ctx.call('dispose', () => result.value.dispose());
        fail('createSession accepted an unknown option key');
      }
      const error = ctx.rejection('createSession with an unknown option key', result, [
        'invalid_request',
      ]);
      const said = [error.message, JSON.stringify(error.details ?? {}), error.providerCode ?? ''];
      // a key is the host's own word, not a secret: naming it is how the host finds its typo
      if (!said.some((t) => t.includes(key))) {
        fail('the invalid_request rejection does not name the unknown option key');
      }
      if (said.some((t) => t.includes(value))) {
        fail('the invalid_request rejection echoes the refused value');
      }
      await ctx.idle();
      if (driver.effects().sessions !== before)
        fail('a native session was opened before the options were rejected');
      if (sink.emissions.length > 0)
        fail('the session sink received emissions although createSession was rejected');
    },
  },
  {
    id: 'session.sink-diagnostics-only',
    area: 'session',
    title: 'only diagnostic payloads appear on a session sink',
    applies: () => APPLIES,
    async run(ctx, plan) {
      await tour(ctx, plan);
      for (const opened of ctx.sessions) {
        const other = opened.sink.payloads().filter((p) => p.type !== 'diagnostic');
        if (other.length > 0) {
          fail(
            `the session sink received ${[...new Set(other.map((p) => p.type))].join(', ')}; only diagnostic is allowed`,
          );
        }
      }
    },
  },
  {
    id: 'session.dispose-idempotent',
    area: 'session',
    title: 'dispose() is idempotent and concurrent calls share one native effect',
    applies: () => APPLIES,
    async run(ctx) {
      const { session } = await ctx.openSession();
      const before = ctx.subject.driver.effects().disposals;
      const first = ctx.start('dispose (1st concurrent call)', () => session.dispose());
      const second = ctx.start('dispose (2nd concurrent call)', () => session.dispose());
      ctx.ok(
        'dispose (1st concurrent call)',
        await ctx.settle('dispose (1st concurrent call)', first),
      );
      ctx.ok(
        'dispose (2nd concurrent call)',
        await ctx.settle('dispose (2nd concurrent call)', second),
      );
      await disposeOk(ctx, session, 'dispose (repeated after success)');
      await ctx.idle();
      const effects = ctx.subject.driver.effects().disposals - before;
      if (effects !== 1)
        fail(
          `three dispose() calls had ${String(effects)} native teardown effect(s); expected exactly 1`,
        );
    },
  },
  {
    id: 'session.dispose-retry',
    area: 'session',
    title: 'a dispose() attempt that rejected can be retried to success',
    applies: (plan) => needs(plan, 'dispose_failure'),
    async run(ctx) {
      const { session } = await ctx.openSession();
      const driver = ctx.subject.driver;
      if (driver.failNextDispose === undefined) {
        fail(
          'the harness has no failNextDispose() and did not declare dispose_failure unexercisable',
        );
      }
      const before = driver.effects().disposals;
      driver.failNextDispose();
      const first = await ctx.call('dispose (native teardown fails)', () => session.dispose());
      // A rejection (definite or unknown outcome) is what the caller retries; a resolution is
      // acceptable only when the provider retried the teardown itself and it succeeded.
      if (first.ok && driver.effects().disposals === before) {
        fail('dispose() resolved although the native teardown failed');
      }
      await disposeOk(ctx, session, 'dispose (retry after a failed attempt)');
      await disposeOk(ctx, session, 'dispose (repeated after the retry)');
      const effects = driver.effects().disposals - before;
      if (effects !== 1)
        fail(
          `the retried dispose had ${String(effects)} successful native teardown(s); expected exactly 1`,
        );
    },
  },
  {
    id: 'session.closed-after-dispose',
    area: 'session',
    title: 'startRun rejects with session_closed from the moment disposal begins',
    applies: () => APPLIES,
    async run(ctx) {
      const { session } = await ctx.openSession();
      const runsBefore = ctx.subject.driver.effects().runs;
      const disposing = ctx.start('dispose', () => session.dispose());
      const during = ctx.start('startRun while disposing', () =>
        session.startRun({
          input: ctx.script('complete'),
          sink: recorder('run (while disposing)'),
          runRef: ctx.marker('run'),
        }),
      );
      ctx.rejection(
        'startRun while disposing',
        await ctx.settle('startRun while disposing', during),
        ['session_closed'],
      );
      ctx.ok('dispose', await ctx.settle('dispose', disposing));
      const after = await ctx.call('startRun after dispose', () =>
        session.startRun({
          input: ctx.script('complete'),
          sink: recorder('run (after dispose)'),
          runRef: ctx.marker('run'),
        }),
      );
      ctx.rejection('startRun after dispose', after, ['session_closed']);
      await ctx.idle();
      if (ctx.subject.driver.effects().runs !== runsBefore)
        fail('a native run was started on a disposed session');
    },
  },
  {
    id: 'session.dispose-settles-runs',
    area: 'session',
    title: 'a run in flight when disposal succeeds has its completion settled',
    applies: (plan) => needs(plan, 'hang'),
    async run(ctx, plan) {
      const opened = await ctx.openSession();
      const run = await ctx.startRun(opened, 'hang');
      await ctx.idle();
      await disposeOk(ctx, opened.session, 'dispose with a run in flight');
      await ctx.completion(run, 'run in flight at dispose');
      const ask = plan.askScenarios[0];
      if (ask !== undefined) {
        const waiting = await ctx.openSession();
        const asking = await ctx.startRun(waiting, ask);
        await ctx.waitForRequest(asking, `${ask} run`);
        await disposeOk(ctx, waiting.session, 'dispose with an interaction pending');
        await ctx.completion(asking, 'run waiting on an interaction at dispose');
      }
    },
  },
];
