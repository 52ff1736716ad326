/**
 * A runtime on the hand-driven provider over a store that can hold or refuse the commit carrying
 * a given record, so a test sees what the provider got while that record was not yet durable.
 */
import { createAgentRuntime } from '@relvo-labs/agent-runtime';
import { createManualProvider, type ManualProviderControls } from './manual-provider.js';
import { typeGatedStore } from './store-wrap.js';
import { onCleanup, tempDir, until } from './support.js';

export async function gatedRuntime() {
  const manual: ManualProviderControls = createManualProvider();
  const gated = typeGatedStore();
  const runtime = await createAgentRuntime({
    providers: { manual: () => manual.provider },
    config: { defaultProfile: 'm', profiles: { m: { provider: 'manual' } } },
    store: gated.store,
  });
  onCleanup(() => runtime.shutdown().catch(() => undefined));
  const session = await runtime.openSession({ workspace: tempDir() });
  return { manual, runtime, session, ...gated };
}

/** A gated runtime whose session has a turn with a started run. */
export async function runningTurn() {
  const s = await gatedRuntime();
  const turn = await s.session.submitTurn({ input: 'x' });
  await until(() => s.manual.sessions[0]?.runs.length === 1, 'the run');
  return { ...s, turn, run: s.manual.sessions[0]!.runs[0]! };
}

/** A gated runtime whose session has a started run that waits for an approval. */
export async function awaitingApproval() {
  const s = await runningTurn();
  s.run.sink.emit({
    payload: {
      type: 'interaction.requested',
      providerRef: 'a1',
      request: {
        kind: 'approval',
        subject: { category: 'command', summary: 'touch f' },
        allowedModes: ['once'],
        riskHint: 'medium',
      },
    },
  });
  await until(() => s.session.pendingInteractions().length === 1, 'the approval');
  const interactionId = s.session.pendingInteractions()[0]!.interactionId;
  return { ...s, interactionId };
}
