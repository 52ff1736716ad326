/** The invariants a fuzz case ends on, and what it reports (see hostile-session.ts). */
import {
  AgentRuntimeError,
  isProviderRejection,
  providerEventInputSchema,
  providerRunTerminationSchema,
  type ProviderEventInput,
  type ProviderRun,
  type ProviderRunTermination,
} from '@relvo-labs/agent-provider';
import type { FakeTransport } from '../support/fake-transport.js';

export interface TrackedRun {
  readonly run: ProviderRun;
  readonly events: ProviderEventInput[];
  termination: ProviderRunTermination | undefined;
  settledCount: number;
  eventsAfterSettle: number;
}

export interface CaseReport {
  readonly events: number;
  readonly runs: number;
  readonly settled: number;
  /** Published events by payload type, and run outcomes as `run.<outcome>`. */
  readonly types: Readonly<Record<string, number>>;
}

/** What a case saw once it ended. */
export interface CaseEnd {
  readonly runs: readonly TrackedRun[];
  readonly published: readonly unknown[];
  readonly failures: readonly unknown[];
  readonly nativeIds: ReadonlySet<string>;
  readonly escaped: readonly unknown[];
  readonly transport: FakeTransport;
}

/** Throws on the first broken invariant of an ended case. */
export function checkInvariants({
  runs,
  published,
  failures,
  nativeIds,
  escaped,
  transport,
}: CaseEnd): void {
  for (const [i, r] of runs.entries()) {
    if (r.settledCount !== 1) throw new Error(`run ${i} settled ${r.settledCount} times`);
    if (!providerRunTerminationSchema.safeParse(r.termination).success)
      throw new Error(`run ${i} ended with an invalid termination`);
    if (r.eventsAfterSettle > 0)
      throw new Error(`run ${i} emitted ${r.eventsAfterSettle} event(s) after settling`);
  }
  for (const e of published) {
    if (!providerEventInputSchema.safeParse(e).success)
      throw new Error(`invalid event ${JSON.stringify(e).slice(0, 200)}`);
  }
  const text = JSON.stringify([published, failures.map(describe), runs.map((r) => r.termination)]);
  if (text.includes('CANARY')) throw new Error('a canary secret was published');
  for (const id of nativeIds)
    if (text.includes(id)) throw new Error(`a native id was published: ${id}`);
  transport.assertAllFramesValid();
  if (escaped.length > 0) throw new Error(`an exception escaped: ${String(escaped[0])}`);
}

/** Published events by payload type and runs by outcome. */
export function caseReport(published: readonly unknown[], runs: readonly TrackedRun[]): CaseReport {
  const types: Record<string, number> = {};
  for (const e of published) {
    const type = (e as ProviderEventInput).payload.type;
    types[type] = (types[type] ?? 0) + 1;
  }
  for (const r of runs) {
    const key = `run.${r.termination?.outcome ?? 'unsettled'}`;
    types[key] = (types[key] ?? 0) + 1;
  }
  return {
    events: published.length,
    runs: runs.length,
    settled: runs.filter((r) => r.settledCount === 1).length,
    types,
  };
}

function describe(e: unknown): unknown {
  if (isProviderRejection(e)) return { message: e.message, error: e.agentError };
  if (e instanceof AgentRuntimeError) return { message: e.message, error: e.error };
  return e instanceof Error ? { message: e.message } : e;
}
