/**
 * `relvo-codex run --resume <session>`: continues a session a `run` that ended without closing
 * it (killed, crashed) left in the event log, on the same codex thread; `run --fork <session>`
 * opens a new session on a fork of a session's thread (open, closed or crashed). Each refusal of the
 * runtime or of codex becomes one line that says what to do; nothing of the log is echoed.
 */
import { toAgentError } from '@relvo-labs/agent-provider';
import {
  isRuntimeError,
  type AgentRuntime,
  type RuntimeConfig,
  type RuntimeConfigInput,
  type RuntimeSession,
} from '@relvo-labs/agent-runtime';
import { CliExit, EXIT } from '../exit-codes.js';
import { findSession, readSession } from './log-reader.js';

/**
 * With an event log, codex profiles persist their thread (unless a profile says otherwise), so
 * that a run that dies can be resumed; without one there is nothing to resume from.
 */
export function withThreadPersistence(config: RuntimeConfig): RuntimeConfigInput {
  const profiles = Object.fromEntries(
    Object.entries(config.profiles).map(([name, profile]) => [
      name,
      profile.provider !== 'codex' || 'persistence' in profile.providerOptions
        ? profile
        : { ...profile, providerOptions: { ...profile.providerOptions, persistence: 'thread' } },
    ]),
  );
  return { ...config, profiles };
}

const BY_PROVIDER_CODE: Readonly<Record<string, string>> = {
  recovery_codex_home_mismatch:
    'it was recorded under another CODEX_HOME; run with the CODEX_HOME it was started with',
  recovery_thread_unknown:
    'codex has no saved thread for it in this CODEX_HOME; start a new session with `relvo-codex run`',
  recovery_thread_open_elsewhere:
    'another codex still has its thread open; end that run (or wait for its host to stop), then resume again',
  recovery_workspace_mismatch:
    'its workspace is not the folder it was started in; restore that folder at the same path',
};

function refusalLine(error: unknown, id: string, how: 'resumed' | 'forked' = 'resumed'): string {
  const reason = isRuntimeError(error) ? error.reason : undefined;
  const cannot = `session ${id} cannot be ${how}:`;
  switch (reason) {
    case 'session_not_forkable':
      return isRuntimeError(error) && error.error.details?.workspace === 'changed'
        ? `${cannot} its workspace folder is gone or was moved; restore it at the same path`
        : `${cannot} it ran without a saved codex thread (with --ephemeral, or it never started one); fork a session that ran a turn with an event log`;
    case 'fork_unsupported':
      return `${cannot} its profile no longer names codex with saved threads in this config; run with the config it was started with`;
    case 'fork_refused': {
      const code = toAgentError(error).providerCode ?? '';
      return `${cannot} ${BY_PROVIDER_CODE[code] ?? 'codex refused to fork its thread'}`;
    }
    case 'session_not_resumable':
      return `${cannot} it is closed, failed, or ran without a saved codex thread (with --ephemeral, or before sessions were resumable); start a new one with \`relvo-codex run\``;
    case 'resume_workspace_mismatch':
      return `${cannot} its workspace folder is gone or was moved; restore it at the same path`;
    case 'session_leased':
      return `${cannot} another relvo-codex (or host) has it open, or the lease of the one that ran it has not lapsed yet; try again when that one has ended`;
    case 'record_key_missing':
      return `${cannot} the shared log's record key is not configured; set RELVO_RECORD_KEY_FILE to the key file every host of the fleet shares`;
    case 'record_key_insecure':
      return `${cannot} the record key file can be read by other users; chmod 600 it`;
    case 'record_key_invalid':
      return `${cannot} the record key file is missing or holds no key (base64 or hex of at least 32 bytes)`;
    case 'record_unverified':
      return `${cannot} its saved codex thread does not verify under the log's key (altered, written under another key, or by an older relvo-codex); start a new session with \`relvo-codex run\``;
    case 'resume_provider_mismatch':
      return `${cannot} its profile no longer names codex with a saved thread in this config; run with the config it was started with`;
    case 'resume_refused': {
      const code = toAgentError(error).providerCode ?? '';
      return `${cannot} ${BY_PROVIDER_CODE[code] ?? 'codex refused to resume its thread'}`;
    }
    default:
      return `${cannot} ${toAgentError(error).message}${reason === undefined ? '' : ` [${reason}]`}`;
  }
}

/** A resume whose profile is not in this config: which profile, and the config it ran with. */
async function configNeeded(runtime: AgentRuntime, id: string, profile: unknown): Promise<string> {
  const opened = (await readSession(runtime.store, id).catch(() => []))[0]?.payload;
  const recorded = opened?.type === 'session.opened' ? opened.metadata?.config : undefined;
  const name = typeof profile === 'string' ? `profile "${profile}"` : 'its profile';
  const file =
    typeof recorded === 'string' && recorded !== 'built-in'
      ? `run again with --config ${recorded}, the file it was started with`
      : 'run again with the --config it was started with';
  const here =
    typeof profile === 'string' && Object.hasOwn(runtime.config.profiles, profile)
      ? 'no longer names codex with a saved thread in this config'
      : 'is not in this config';
  return `session ${id} cannot be resumed: ${name} ${here}; ${file}`;
}

/** A new session continuing from the one `wanted` names (its thread forked); that one is unchanged. */
export async function forkFromLog(
  runtime: AgentRuntime,
  wanted: string,
  logPath: string,
): Promise<{ session: RuntimeSession; fromSequence: number; forkedFrom: string }> {
  const summary = await findSession(runtime.store, wanted, logPath);
  try {
    const session = await runtime.forkSession(summary.sessionId);
    return { session, fromSequence: 1, forkedFrom: summary.sessionId };
  } catch (error) {
    const usage = isRuntimeError(error) && error.reason === 'session_not_forkable';
    throw new CliExit(
      usage ? EXIT.usage : EXIT.failed,
      refusalLine(error, summary.sessionId, 'forked'),
    );
  }
}

/** The session `wanted` names (an id or a unique prefix), resumed, and where its new events start. */
export async function resumeFromLog(
  runtime: AgentRuntime,
  wanted: string,
  logPath: string,
): Promise<{ session: RuntimeSession; fromSequence: number }> {
  const summary = await findSession(runtime.store, wanted, logPath);
  let session: RuntimeSession;
  try {
    session = await runtime.resumeSession(summary.sessionId);
  } catch (error) {
    if (isRuntimeError(error) && error.reason === 'resume_provider_mismatch') {
      throw new CliExit(
        EXIT.usage,
        await configNeeded(runtime, summary.sessionId, error.error.details?.profile),
        `${error.error.message} [${error.reason}]`,
      );
    }
    const usage = isRuntimeError(error) && error.reason === 'session_not_resumable';
    throw new CliExit(usage ? EXIT.usage : EXIT.failed, refusalLine(error, summary.sessionId));
  }
  const stored = await runtime.store.getSession(session.id);
  return { session, fromSequence: (stored?.lastSequence ?? 0) + 1 };
}
