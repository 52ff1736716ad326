import { checkWireCompatibility } from '../../descriptor.js';
import { canonicalJson, captureJson } from '../../json.js';
import { providerDescriptorSchema } from '../../schemas/descriptor.js';
import { providerRecoveryRecordSchema } from '../../schemas/recovery.js';
import { WIRE_VERSION } from '../../wire.js';
import { fail, type CheckContext } from './context.js';
import { APPLIES, type CheckDefinition, type ConformancePlan } from './plan.js';

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const key of Reflect.ownKeys(value))
    deepFreeze((value as Record<PropertyKey, unknown>)[key]);
}

/** One session with (when drivable) one completing run, then disposal. */
async function exercise(ctx: CheckContext, plan: ConformancePlan, when: string): Promise<void> {
  const opened = await ctx.openSession();
  if (plan.can('complete')) {
    const run = await ctx.startRun(opened, 'complete');
    const termination = await ctx.completion(run, `run ${when}`);
    if (termination.outcome !== 'succeeded') {
      fail(`a run ${when} ended ${termination.outcome}; expected succeeded`);
    }
  }
  await ctx.call('dispose', () => opened.session.dispose());
}

export const descriptorChecks: readonly CheckDefinition[] = [
  {
    id: 'descriptor.schema',
    area: 'descriptor',
    title: 'describe() parses strictly as a ProviderDescriptor and the wire version is compatible',
    applies: () => APPLIES,
    async run(ctx) {
      const raw: unknown = ctx.subject.provider.describe();
      const captured = captureJson(raw);
      if (!captured.ok) fail(`describe() output is not JSON-safe (${captured.reason})`);
      const parsed = providerDescriptorSchema.safeParse(captured.value);
      if (!parsed.success) {
        const paths = parsed.error.issues
          .slice(0, 3)
          .map((i) => i.path.map(String).join('.') || '(root)');
        fail(`describe() output fails the strict descriptor schema at ${paths.join(', ')}`);
      }
      const wire = checkWireCompatibility(parsed.data);
      if (!wire.ok)
        fail(`describe() declares wire version ${parsed.data.wireVersion}, not ${WIRE_VERSION}`);
      await Promise.resolve();
    },
  },
  {
    id: 'descriptor.snapshot',
    area: 'descriptor',
    title:
      'the provider works from one frozen describe() snapshot, never mutates it, and a second call is equal',
    applies: () => APPLIES,
    async run(ctx, plan) {
      const provider = ctx.subject.provider;
      // The runner already took the registration call; watch what the provider handed out.
      const returned: unknown = provider.describe();
      const before = canonicalJson(ctx.descriptor);
      const returnedBefore = captureJson(returned);
      if (!returnedBefore.ok) fail(`describe() output is not JSON-safe (${returnedBefore.reason})`);
      const rawBefore = canonicalJson(returnedBefore.value);
      const original = provider.describe.bind(provider);
      const own = Object.getOwnPropertyDescriptor(provider, 'describe');
      let laterCalls = 0;
      // Any further call from inside the provider is counted: it must not depend on one.
      const replaced = Reflect.set(provider, 'describe', () => {
        laterCalls += 1;
        return original();
      });
      // Pass 1, unfrozen: a write into the returned descriptor shows up even when the
      // provider would swallow the TypeError (or use Reflect.set) on a frozen object.
      await exercise(ctx, plan, 'before the descriptor was frozen');
      const returnedNow = captureJson(returned);
      if (!returnedNow.ok || canonicalJson(returnedNow.value) !== rawBefore) {
        fail('the provider mutated the descriptor it returned from describe()');
      }
      // Pass 2, deep-frozen as the runtime keeps its snapshot: the provider must keep working.
      deepFreeze(returned);
      await exercise(ctx, plan, 'after the descriptor was frozen');
      if (replaced) {
        if (own === undefined) Reflect.deleteProperty(provider, 'describe');
        else Object.defineProperty(provider, 'describe', own);
      }
      if (laterCalls > 0)
        fail(
          `the provider called describe() again ${String(laterCalls)} time(s) after registration`,
        );
      const secondRaw: unknown = provider.describe();
      const secondCaptured = captureJson(secondRaw);
      const second = providerDescriptorSchema.safeParse(
        secondCaptured.ok ? secondCaptured.value : undefined,
      );
      if (!second.success || canonicalJson(second.data) !== before) {
        fail('a second describe() call does not yield a value equal to the first');
      }
    },
  },
  {
    id: 'descriptor.recovery',
    area: 'descriptor',
    title: 'recovery methods match the declared capability and an exported record parses',
    applies: () => APPLIES,
    async run(ctx) {
      const recovery = ctx.descriptor.recovery;
      const hasResume = typeof ctx.subject.provider.resumeSession === 'function';
      if (hasResume && !recovery.resumesFromRecoveryRecord) {
        fail('resumeSession exists although the descriptor does not declare resume');
      }
      if (!hasResume && recovery.resumesFromRecoveryRecord) {
        fail('the descriptor declares resume but the provider has no resumeSession');
      }
      const hasFork = typeof ctx.subject.provider.forkSession === 'function';
      if (hasFork !== recovery.forksFromRecoveryRecord) {
        fail(
          hasFork
            ? 'forkSession exists although the descriptor does not declare fork'
            : 'the descriptor declares fork but the provider has no forkSession',
        );
      }
      if (!recovery.exportsRecoveryRecord) return;
      const opened = await ctx.openSession();
      const session = opened.session;
      if (typeof session.exportRecoveryRecord !== 'function') {
        fail('the descriptor declares recovery export but the session has no exportRecoveryRecord');
      }
      const exported = ctx.ok(
        'exportRecoveryRecord',
        await ctx.call('exportRecoveryRecord', () =>
          (session.exportRecoveryRecord as () => Promise<unknown>).call(session),
        ),
      );
      const captured = captureJson(exported);
      const record = providerRecoveryRecordSchema.safeParse(
        captured.ok ? captured.value : undefined,
      );
      if (!record.success)
        fail('the exported recovery record does not parse as a ProviderRecoveryRecord');
      if (record.data.providerId !== ctx.descriptor.providerId) {
        fail('the exported recovery record names a different providerId than the descriptor');
      }
      if (record.data.wireVersion !== WIRE_VERSION) {
        fail(
          `the exported recovery record carries wireVersion ${record.data.wireVersion.slice(0, 16)}, not ${WIRE_VERSION}`,
        );
      }
      await ctx.call('dispose', () => session.dispose());
    },
  },
];
