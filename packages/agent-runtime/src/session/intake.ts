import {
  agentError,
  captureJson,
  providerEventInputSchema,
  providerRunTerminationSchema,
  type AgentError,
  type ProviderEventPayload,
  type ProviderRunTermination,
} from '@relvo-labs/agent-provider';
import type { PayloadOf } from '../envelope.js';

/*
 * Everything a provider hands over passes here first (docs/spi.md §10.3): JSON capture (cycles,
 * accessors, hostile proxies → refusal), then the strict SPI schema. The result is a fresh,
 * frozen value the provider can no longer mutate. Nothing here throws.
 */

export type Intake<T> = { ok: true; value: T } | { ok: false; reason: string };

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function firstIssuePath(issues: readonly { path: readonly PropertyKey[] }[]): string {
  const path = issues[0]?.path ?? [];
  return path.length === 0 ? 'input' : path.map((p) => String(p)).join('.');
}

export function intakeProviderEvent(input: unknown): Intake<ProviderEventPayload> {
  try {
    const captured = captureJson(input);
    if (!captured.ok) return { ok: false, reason: `not_json:${captured.reason}` };
    const parsed = providerEventInputSchema.safeParse(captured.value);
    if (!parsed.success)
      return { ok: false, reason: `schema:${firstIssuePath(parsed.error.issues)}` };
    return { ok: true, value: deepFreeze(parsed.data.payload) };
  } catch {
    return { ok: false, reason: 'capture_threw' };
  }
}

export function intakeTermination(value: unknown): ProviderRunTermination {
  try {
    const captured = captureJson(value);
    const parsed = captured.ok ? providerRunTerminationSchema.safeParse(captured.value) : undefined;
    if (parsed?.success === true) return deepFreeze(parsed.data);
  } catch {
    // falls through to the typed failure below
  }
  return {
    outcome: 'failed',
    error: agentError(
      'provider_contract_violation',
      'the provider settled the run with an invalid termination',
    ),
  };
}

/** The diagnostic recorded in place of an emission the runtime refused. */
export function contractDiagnostic(reason: string): PayloadOf<'diagnostic'> {
  return {
    type: 'diagnostic',
    level: 'warning',
    message: 'provider contract violation: an emission was refused',
    detail: { code: 'provider_contract_violation', reason: reason.slice(0, 200) },
  };
}

export function failedWith(error: AgentError): ProviderRunTermination {
  return { outcome: 'failed', error };
}
