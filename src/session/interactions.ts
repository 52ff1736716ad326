/**
 * Wires the interaction registry into one session: the owner check of §9.4 step 2, and
 * registry diagnostics onto the session sink. Absent when no bridge is enabled.
 */
import type { InteractionResponse } from '@relvo-labs/agent-provider';
import { InteractionRegistry, type OwnerResolution } from '../interactions/registry.js';
import type { ResolvedCodexProviderOptions } from '../options.js';
import type { CodexRun } from './run.js';
import type { CodexSession, SessionInteractions } from './session.js';

export function openSessionInteractions(
  session: CodexSession,
  options: Pick<ResolvedCodexProviderOptions, 'approvals' | 'questions'>,
): SessionInteractions | undefined {
  const bridges = {
    approvals: options.approvals === 'bridge',
    questions: options.questions === 'bridge',
  };
  if (!bridges.approvals && !bridges.questions) return undefined;

  const registry = new InteractionRegistry<CodexRun>({
    bridges,
    resolveOwner: (correlation): OwnerResolution<CodexRun> => {
      if (session.closing || session.ended) return { ok: false, reason: 'session_closing' };
      if (session.fenced) return { ok: false, reason: 'session_fenced' };
      const run = session.activeRun;
      if (run === undefined) return { ok: false, reason: 'no_active_run' };
      if (run.settled) return { ok: false, reason: 'run_concluded' };
      if (run.interactionsFenced) return { ok: false, reason: 'run_interrupting' };
      if (run.turnId === undefined) return { ok: false, reason: 'run_not_bound' };
      if (correlation.threadId !== session.threadId || correlation.turnId !== run.turnId) {
        return { ok: false, reason: 'correlation_mismatch' };
      }
      return { ok: true, owner: run };
    },
    onDiagnostic: (d) => {
      session.emitSessionDiagnostic({
        payload: {
          type: 'diagnostic',
          level: d.level,
          message: d.token !== undefined ? `codex ${d.code} (${d.token})` : `codex ${d.code}`,
          detail: d.token !== undefined ? { code: d.code, token: d.token } : { code: d.code },
        },
      });
    },
  });

  return {
    offer: (offer) => registry.handleServerRequest(offer),
    respond: (ref: string, response: InteractionResponse) => registry.respond(ref, response),
    resolved: (requestId) => {
      registry.withdraw(requestId, session.threadId);
    },
    retireRun: (run) => {
      registry.retireRun(run);
    },
    retireAll: (cause) => {
      registry.retireAll(cause);
    },
  };
}
