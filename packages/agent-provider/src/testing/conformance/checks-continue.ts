/**
 * Checks for what a run or a session may carry from before (ADR-0041): per-run options, each
 * declared on its own, and a session forked from an exported recovery record.
 */
import { captureJson } from '../../json.js';
import { providerRecoveryRecordSchema } from '../../schemas/recovery.js';
import { fail, type CheckContext, type OpenedSession, type RunOptionsInput } from './context.js';
import { needs, type CheckDefinition, type ConformancePlan } from './plan.js';

const OPTION_KEYS = ['model', 'effort', 'summary'] as const;
const DEFAULT_OPTIONS = { model: 'conformance-model', effort: 'medium', summary: 'concise' };

/** One finished run: what a record exported afterwards must carry. */
async function completeOne(ctx: CheckContext, opened: OpenedSession, what: string): Promise<void> {
  const done = await ctx.startRun(opened, 'complete');
  const end = await ctx.completion(done, what);
  if (end.outcome !== 'succeeded') fail(`${what}: a complete run ended ${end.outcome}`);
}

export const continueChecks: readonly CheckDefinition[] = [
  {
    id: 'run.options',
    area: 'run',
    title:
      'each declared per-run option (model, effort, summary) is accepted on its run, and the next run without it runs too',
    applies: (plan: ConformancePlan) => {
      const declared = OPTION_KEYS.filter((k) => plan.descriptor.run.options[k]);
      if (declared.length === 0)
        return { applies: false, reason: 'not applicable: no per-run option is declared' };
      return needs(plan, 'complete');
    },
    async run(ctx, plan) {
      const opened = await ctx.openSession();
      const values = { ...DEFAULT_OPTIONS, ...plan.harness.runOptions };
      for (const key of OPTION_KEYS.filter((k) => plan.descriptor.run.options[k])) {
        const options: RunOptionsInput = { [key]: values[key] };
        const started = await ctx.startRun(opened, 'complete', options);
        const end = await ctx.completion(started, `run with its own ${key}`);
        if (end.outcome !== 'succeeded') fail(`a run with its own ${key} ended ${end.outcome}`);
        await completeOne(ctx, opened, `the run after one with its own ${key}`);
      }
    },
  },
  {
    id: 'session.fork',
    area: 'session',
    title:
      'forkSession exists exactly when declared; it opens a session from an exported record that runs, and refuses a record of another provider',
    applies: (plan) => {
      if (!plan.descriptor.recovery.forksFromRecoveryRecord)
        return { applies: false, reason: 'not applicable: fork is not declared' };
      return needs(plan, 'complete');
    },
    async run(ctx) {
      const provider = ctx.subject.provider;
      const forkSession = provider.forkSession?.bind(provider);
      if (forkSession === undefined)
        fail('the descriptor declares fork but the provider has no forkSession');
      const source = await ctx.openSession();
      await completeOne(ctx, source, 'the source run');
      const exported = ctx.ok(
        'exportRecoveryRecord',
        await ctx.call('exportRecoveryRecord', () =>
          (source.session.exportRecoveryRecord as () => Promise<unknown>).call(source.session),
        ),
      );
      const captured = captureJson(exported);
      const record = providerRecoveryRecordSchema.safeParse(captured.ok ? captured.value : null);
      if (!record.success) fail('the exported recovery record does not parse');
      const forked = await ctx.openSession(record.data);
      if (forked.session === source.session) fail('forkSession returned the source session');
      await completeOne(ctx, forked, 'a run in the fork');
      await completeOne(ctx, source, 'a run in the source after the fork');
      const foreign = { ...record.data, providerId: `${record.data.providerId}-other` };
      ctx.rejection(
        'forkSession (another provider’s record)',
        await ctx.call('forkSession (another provider’s record)', () =>
          forkSession(foreign, ctx.init(forked.sink)),
        ),
        ['invalid_request'],
      );
    },
  },
];
