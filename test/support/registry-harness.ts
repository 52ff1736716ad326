/** Shared harness for the registry tests: a registry with a switchable owner check. */
import { expect } from 'vitest';
import { isProviderRejection, type ProviderEventInput } from '@relvo-labs/agent-provider';
import {
  InteractionRegistry,
  type OwnerResolution,
  type RegistryDiagnostic,
} from '../../src/interactions/registry.js';
import type { InteractionCorrelation } from '../../src/interactions/native-approval.js';
import {
  fakeOffer,
  fakeOwner,
  realApprovalParams,
  realQuestionParams,
  type FakeOwner,
} from './interaction-frames.js';

export const APPROVAL = 'item/commandExecution/requestApproval';
export const QUESTION = 'item/tool/requestUserInput';

export interface RegistryHarness {
  registry: InteractionRegistry<FakeOwner>;
  owner: FakeOwner;
  diagnostics: RegistryDiagnostic[];
  correlations: InteractionCorrelation[];
  setOwner(resolution: OwnerResolution<FakeOwner>): void;
  /** Offers `offered` and expects it raised; returns it with its neutral ref. */
  raise(offered: Offered): Raised;
  /** Offers a command approval (default: the measured one, both modes offered), expects it raised. */
  raiseApproval(id?: string | number, params?: unknown): Raised;
  /** Offers a question batch (default: the measured one) and expects it raised. */
  raiseQuestion(id?: string | number, params?: unknown): Raised;
}

type Offered = ReturnType<typeof fakeOffer>;
export type Raised = Offered & { readonly ref: string };

export function registryHarness(bridges = { approvals: true, questions: true }): RegistryHarness {
  const owner = fakeOwner('run-1');
  const diagnostics: RegistryDiagnostic[] = [];
  const correlations: InteractionCorrelation[] = [];
  let resolution: OwnerResolution<FakeOwner> = { ok: true, owner };
  const registry = new InteractionRegistry<FakeOwner>({
    bridges,
    resolveOwner: (correlation) => {
      correlations.push(correlation);
      return resolution;
    },
    onDiagnostic: (d) => diagnostics.push(d),
  });
  const raise = (offered: Offered): Raised => {
    expect(registry.handleServerRequest(offered.offer)).toBe(true);
    return { ...offered, ref: refOf(owner.events.at(-1)) };
  };
  return {
    registry,
    owner,
    diagnostics,
    correlations,
    setOwner: (r) => {
      resolution = r;
    },
    raise,
    raiseApproval: (id = 0, params = approvalParams()) => raise(fakeOffer(APPROVAL, params, id)),
    raiseQuestion: (id = 0, params = realQuestionParams()) =>
      raise(fakeOffer(QUESTION, params, id)),
  };
}

/** Params with availableDecisions removed, so both `once` and `session` are offered. */
export function approvalParams(patch: Record<string, unknown> = {}): Record<string, unknown> {
  const params: Record<string, unknown> = { ...realApprovalParams(), ...patch };
  Reflect.deleteProperty(params, 'availableDecisions');
  return params;
}

export function refOf(event: ProviderEventInput | undefined): string {
  const payload = event?.payload;
  if (payload?.type !== 'interaction.requested') throw new Error('expected interaction.requested');
  return payload.providerRef;
}

export async function rejectionOf(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; details?: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (!isProviderRejection(error))
      throw new Error('expected a ProviderRejection', { cause: error });
    return error.agentError;
  }
  throw new Error('expected the promise to reject');
}

/** An offer of the measured approval, both modes offered; `connected: false` cannot be replied to. */
export const approvalOffer = (
  id: string | number = 0,
  patch: Record<string, unknown> = {},
  connected = true,
) => fakeOffer(APPROVAL, approvalParams(patch), id, connected);

/** An offer of a question batch (default: the measured one). */
export const questionOffer = (id: string | number = 0, params: unknown = realQuestionParams()) =>
  fakeOffer(QUESTION, params, id);
