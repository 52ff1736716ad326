/**
 * Two runtime processes on one PostgreSQL schema for the console's whole-log tests: process A
 * (fixtures/console-owner-child.ts) owns a session of its own; process B is this one, with a
 * short `commandTimeoutMs` so a command nobody carries out is refused within the test's time.
 */
import { fileURLToPath } from 'node:url';
import {
  createAgentRuntime,
  openPostgresEventStore,
  type AgentRuntime,
} from '@relvo-labs/agent-runtime';
import { createManualProvider, type ManualProviderControls } from '../manual-provider.js';
import { testRecordKey } from '../pg-cluster.js';
import { RuntimeChild } from '../runtime-child.js';
import { onCleanup, tempDir } from '../support.js';

const OWNER = fileURLToPath(new URL('../fixtures/console-owner-child.ts', import.meta.url));

export interface TwoProcesses {
  /** Process A; `theirs` is the session it owns. */
  readonly a: RuntimeChild;
  readonly theirs: string;
  /** Process B's runtime (shut down after the test) and its provider. */
  readonly runtime: AgentRuntime;
  readonly manual: ManualProviderControls;
}

export async function twoProcesses(url: string, schema: string): Promise<TwoProcesses> {
  const a = new RuntimeChild(OWNER, [url, schema, tempDir()]);
  const theirs = (await a.line((l) => l.startsWith('SESSION '), 'A session')).slice(8);
  const manual = createManualProvider();
  const runtime = await createAgentRuntime({
    providers: { manual: () => manual.provider },
    config: { defaultProfile: 'm', profiles: { m: { provider: 'manual' } } },
    store: openPostgresEventStore({
      connectionString: url,
      schema,
      recordKey: testRecordKey(schema),
    }),
    commandTimeoutMs: 1_500,
  });
  onCleanup(() => runtime.shutdown());
  return { a, theirs, runtime, manual };
}
