/** The command approval the hand-driven provider's runs raise in the multi-runtime tests. */
import type { ProviderEventSink } from '@relvo-labs/agent-provider';

/** Emits `interaction.requested` for a command approval (once, medium risk) on the run's sink. */
export function raiseApproval(sink: ProviderEventSink, providerRef = 'approve-1'): void {
  sink.emit({
    payload: {
      type: 'interaction.requested',
      providerRef,
      request: {
        kind: 'approval',
        subject: { category: 'command', summary: 'touch marker' },
        allowedModes: ['once'],
        riskHint: 'medium',
      },
    },
  });
}
