import { agentError } from './errors.js';
import {
  providerDescriptorSchema,
  type ProviderDescriptor,
  type ProviderDescriptorInput,
  type WorkspaceOwnership,
} from './schemas/descriptor.js';
import type { AgentError } from './schemas/error.js';
import type { ApprovalMode } from './schemas/interaction.js';
import { WIRE_VERSION } from './wire.js';

export type CapabilityCheck = { ok: true } | { ok: false; error: AgentError };

/** Input for `defineProviderDescriptor`: `wireVersion` may be left out. */
export type DefineProviderDescriptorInput = Omit<ProviderDescriptorInput, 'wireVersion'> & {
  wireVersion?: string;
};

const OK: CapabilityCheck = Object.freeze({ ok: true });

function denied(
  message: string,
  details: Record<string, string | number | null | string[]>,
): CapabilityCheck {
  return { ok: false, error: agentError('capability_unsupported', message, { details }) };
}

/** Parses with every default applied; throws the ZodError on invalid input. */
export function defineProviderDescriptor(input: DefineProviderDescriptorInput): ProviderDescriptor {
  return providerDescriptorSchema.parse({
    ...input,
    wireVersion: input.wireVersion ?? WIRE_VERSION,
  });
}

export function checkWireCompatibility(
  descriptor: Pick<ProviderDescriptor, 'wireVersion'>,
): CapabilityCheck {
  // Pre-1.0: exact string match, no ranges.
  if (descriptor.wireVersion === WIRE_VERSION) return OK;
  const providerWireVersion =
    typeof descriptor.wireVersion === 'string' ? descriptor.wireVersion.slice(0, 16) : null;
  return {
    ok: false,
    error: agentError(
      'provider_contract_violation',
      'provider wire version does not match the runtime wire version',
      {
        details: { providerWireVersion, runtimeWireVersion: WIRE_VERSION },
      },
    ),
  };
}

export function canInterruptRun(d: ProviderDescriptor): CapabilityCheck {
  if (d.run.interrupt.mode !== 'unsupported') return OK;
  return denied('provider does not support interrupting a run', { capability: 'run.interrupt' });
}

export function canSteerRun(d: ProviderDescriptor): CapabilityCheck {
  if (d.run.steer) return OK;
  return denied('provider does not support steering a run', { capability: 'run.steer' });
}

export function canForkSession(d: ProviderDescriptor): CapabilityCheck {
  if (d.recovery.forksFromRecoveryRecord) return OK;
  return denied('provider does not fork sessions', {
    capability: 'recovery.forksFromRecoveryRecord',
  });
}

export function canReadHistory(d: ProviderDescriptor): CapabilityCheck {
  if (d.session.history) return OK;
  return denied('provider does not read session history', { capability: 'session.history' });
}

export function canRevertSession(d: ProviderDescriptor): CapabilityCheck {
  if (d.session.revert) return OK;
  return denied('provider does not revert sessions', { capability: 'session.revert' });
}

/** Whether the provider honours the per-run option `key` (`run.options`). */
export function canSetRunOption(
  d: ProviderDescriptor,
  key: 'model' | 'effort' | 'summary',
): CapabilityCheck {
  if (d.run.options[key]) return OK;
  return denied('provider does not support this per-run option', {
    capability: `run.options.${key}`,
  });
}

export function canRaiseApproval(d: ProviderDescriptor, mode: ApprovalMode): CapabilityCheck {
  const approval = d.interaction.approval;
  if (!approval.supported) {
    return denied('provider does not support approvals', { capability: 'interaction.approval' });
  }
  if (!approval.modes.includes(mode)) {
    return denied('provider does not support this approval mode', {
      capability: 'interaction.approval.modes',
      requested: mode,
      supported: [...approval.modes],
    });
  }
  return OK;
}

export function canAcceptWorkspace(
  d: ProviderDescriptor,
  ownership: WorkspaceOwnership,
): CapabilityCheck {
  if (d.workspace.requires === 'none') return OK;
  if (d.workspace.acceptsOwnership.includes(ownership)) return OK;
  return denied('provider does not accept this workspace ownership', {
    capability: 'workspace.acceptsOwnership',
    requested: ownership,
    supported: [...d.workspace.acceptsOwnership],
  });
}

export function canAskQuestionSet(d: ProviderDescriptor, count: number): CapabilityCheck {
  const question = d.interaction.question;
  if (!question.supported || !question.batch) {
    return denied('provider does not support question sets', {
      capability: 'interaction.question.batch',
    });
  }
  if (question.maxQuestions !== null && count > question.maxQuestions) {
    return denied('question set exceeds the provider question limit', {
      capability: 'interaction.question.maxQuestions',
      requested: count,
      supported: question.maxQuestions,
    });
  }
  return OK;
}

/** On false the runtime turns an interrupt into a session close. */
export function interruptPreservesSession(d: ProviderDescriptor): boolean {
  const interrupt = d.run.interrupt;
  return interrupt.mode !== 'unsupported' && interrupt.sessionRemainsUsable;
}
