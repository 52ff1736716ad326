/**
 * The session's diagnostics catalogue (docs/behaviour.md §10.4). Each is a fixed sentence plus
 * bounded tokens: never a prompt, answer, upstream message, path or native id.
 */
import type { ProviderEventInput } from '@relvo-labs/agent-provider';
import type { RegistryDiagnostic } from '../interactions/registry.js';
import type { RpcDiagnostic } from '../rpc/client.js';
import type { DropReason } from '../transport/types.js';
import type { FenceReason } from './state.js';

type Level = 'debug' | 'info' | 'warning';

function diagnostic(
  level: Level,
  message: string,
  detail?: Record<string, string | boolean>,
): ProviderEventInput {
  return { payload: { type: 'diagnostic', level, message, ...(detail ? { detail } : {}) } };
}

export function connectionEnded(kind: 'eof' | 'failed', token: string): ProviderEventInput {
  return diagnostic(
    'warning',
    `codex connection ${kind === 'eof' ? 'ended' : 'failed'} (${token})`,
    {
      cause: token,
    },
  );
}

export function sessionFenced(reason: FenceReason): ProviderEventInput {
  return diagnostic(
    'warning',
    `codex session fenced (${reason}): a turn is in an unknown state; dispose this session`,
    { reason },
  );
}

export function foreignTrafficDropped(): ProviderEventInput {
  return diagnostic('debug', 'codex traffic for another thread or turn was dropped');
}

export function turnStalledWarning(stallTimeoutMs: number): ProviderEventInput {
  return diagnostic(
    'warning',
    `codex turn stalled: no progress for ${String(stallTimeoutMs)} ms; interrupting it`,
    { reason: 'turn_stalled' },
  );
}

export function frameDropped(reason: DropReason): ProviderEventInput {
  return diagnostic('debug', `codex frame dropped (${reason})`, { reason });
}

/** The JSON-RPC client's diagnostics; a method is named only when it is in the pinned set. */
export function fromRpc(d: RpcDiagnostic): ProviderEventInput {
  return diagnostic(
    d.level === 'error' ? 'warning' : d.level,
    d.method !== undefined ? `codex ${d.token} (${d.method})` : `codex ${d.token}`,
    { token: d.token },
  );
}

/** The interaction registry's diagnostics: a code and, where it has one, a bounded token. */
export function fromRegistry(d: RegistryDiagnostic): ProviderEventInput {
  return diagnostic(
    d.level,
    d.token !== undefined ? `codex ${d.code} (${d.token})` : `codex ${d.code}`,
    d.token !== undefined ? { code: d.code, token: d.token } : { code: d.code },
  );
}

/** A model slug or an effort as the catalog spells them; anything else is left out, not copied. */
const SETTING_TOKEN = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,199}$/;

/**
 * What codex answered for the thread it started, resumed or forked: the model it uses (also
 * when nothing configured one) and the effort, when codex reports one. Hosts name the model
 * from it; codex reports it nowhere else before the model is asked.
 */
export function threadSettings(defaults: {
  readonly model?: string | undefined;
  readonly effort?: string | undefined;
}): ProviderEventInput {
  const detail: Record<string, string> = {};
  if (defaults.model !== undefined && SETTING_TOKEN.test(defaults.model))
    detail.model = defaults.model;
  if (defaults.effort !== undefined && SETTING_TOKEN.test(defaults.effort))
    detail.effort = defaults.effort;
  return diagnostic('info', 'codex thread settings', { kind: 'thread_settings', ...detail });
}
