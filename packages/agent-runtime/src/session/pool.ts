import {
  canAcceptWorkspace,
  interruptPreservesSession,
  isProviderRejection,
  toAgentError,
  type JsonObject,
  type ProviderEventSink,
  type ProviderRecoveryRecord,
  type ProviderSession,
  type WorkspaceOwnership,
} from '@relvo-labs/agent-provider';
import { providerRefusal, RuntimeError } from '../errors.js';
import type { ProviderRegistry, ResolvedProvider } from '../registry.js';
import type { Grace } from './closing.js';
import { contractDiagnostic, intakeProviderEvent } from './intake.js';
import type { SessionLog } from './log.js';
import { recordMac } from '../record-key.js';
import { checkedProviderSession } from './provider-session.js';
import { intakeRecoveryRecord, isDurable } from './durable.js';
import type { WarmSessions } from './warm.js';

/** A provider session of the pool, as its users see it. */
export interface PooledSession {
  readonly resolved: ResolvedProvider;
  readonly session: ProviderSession;
}

interface PoolEntry extends PooledSession {
  /** Once stale, the session-level sink records nothing more. */
  readonly sink: { stale: boolean };
  /** A dispose still in flight: a retried close awaits it again instead of calling it twice. */
  disposing?: Promise<void>;
  /** The last recovery record logged for it, as JSON: an unchanged one is not logged again. */
  recorded?: string;
}

export interface PoolContext {
  readonly registry: ProviderRegistry;
  readonly log: SessionLog;
  readonly workspace: { readonly root: string; readonly ownership: WorkspaceOwnership };
  /** Provider sessions started ahead of demand, taken before a cold open (ADR-0037). */
  readonly warm?: WarmSessions;
  /** Undefined while the runtime session takes turns, else what a late opening is refused with. */
  refusal(): RuntimeError | undefined;
  /** Records of a session continued from a dead process: the profile's first opening resumes. */
  readonly resumeFrom?: Map<string, ProviderRecoveryRecord>;
  /** Records of the session this one was forked from: the profile's first opening forks. */
  readonly forkFrom?: Map<string, ProviderRecoveryRecord>;
  /** Strings no logged recovery record may contain. */
  readonly secrets: readonly string[];
  /** The log's record key: each logged record carries its MAC (ADR-0050). */
  readonly recordKey?: Buffer;
}

/** A refusal of createSession, or an unknown outcome: typed for the host. */
function openingError(
  error: unknown,
  resolved: ResolvedProvider,
  profile: string,
  from: 'resume' | 'fork' | undefined,
): RuntimeError {
  const provider = resolved.profile.provider;
  if (isProviderRejection(error) && from !== undefined) {
    return providerRefusal(
      error,
      from === 'resume' ? 'resume_refused' : 'fork_refused',
      `profile "${profile}": provider "${provider}" refused to ${from} the session`,
      { profile },
    );
  }
  if (isProviderRejection(error)) {
    const refused = error.agentError.code === 'invalid_request';
    return providerRefusal(
      error,
      refused ? 'session_options_refused' : 'provider_rejected',
      refused
        ? `profile "${profile}": provider "${provider}" refused its sessionOptions`
        : `profile "${profile}": provider "${provider}" refused to open a session`,
      refused ? { profile, path: `profiles.${profile}.sessionOptions` } : { profile },
    );
  }
  return new RuntimeError(
    'provider_unavailable',
    'provider_unknown_outcome',
    `profile "${profile}": the provider session could not be opened`,
    { details: { profile }, cause: error },
  );
}

/**
 * The one owner of a runtime session's provider sessions: one per profile, opened on first use
 * and reused; discarded after an uncertain start or an interrupt that does not preserve it;
 * disposed on close.
 */
export class ProviderSessionPool {
  readonly #ctx: PoolContext;
  readonly #entries = new Map<string, PoolEntry>();
  readonly #opening = new Map<string, Promise<PoolEntry>>();
  /** Rejects a caller still waiting for its provider session once close gave up on it. */
  #abandon!: (error: RuntimeError) => void;
  readonly #abandoned = new Promise<never>((_resolve, reject) => {
    this.#abandon = reject;
  });

  constructor(ctx: PoolContext) {
    this.#ctx = ctx;
    this.#abandoned.catch(() => undefined);
  }

  get(profile: string): Promise<PooledSession> {
    const known = this.#entries.get(profile);
    if (known !== undefined) return Promise.resolve(known);
    let opening = this.#opening.get(profile);
    if (opening === undefined) {
      opening = this.#open(profile).finally(() => this.#opening.delete(profile));
      this.#opening.set(profile, opening);
    }
    return Promise.race([opening, this.#abandoned]);
  }

  /** Close gave up waiting: every `get` still pending rejects; a late session is disposed. */
  abandonOpening(error: RuntimeError): void {
    this.#abandon(error);
  }

  /** Forgets and disposes the profile's session if it still is `session`. */
  discard(profile: string, session: ProviderSession): void {
    const entry = this.#entries.get(profile);
    if (entry?.session !== session) return;
    this.#entries.delete(profile);
    entry.sink.stale = true;
    entry.session.dispose().catch(() => undefined);
  }

  /** docs/spi.md §4.6: an interrupt that does not preserve the session retires it after the run. */
  retireAfterInterrupt(profile: string, session: ProviderSession, runDone: Promise<unknown>): void {
    const entry = this.#entries.get(profile);
    if (entry?.session !== session || interruptPreservesSession(entry.resolved.descriptor)) return;
    void runDone.then(() => {
      this.discard(profile, session);
    });
  }

  /**
   * Disposes every provider session, each wait bounded: one that fails or does not settle in
   * time stays in the pool (a retried close disposes only what is left) and is reported.
   */
  async disposeAll(grace: Grace): Promise<JsonObject[]> {
    const failures: JsonObject[] = [];
    for (const [profile, entry] of [...this.#entries]) {
      try {
        entry.disposing ??= Promise.resolve().then(() => entry.session.dispose());
        if (!(await grace(entry.disposing)).ok) {
          failures.push({
            phase: 'dispose',
            profile,
            code: 'provider_unavailable',
            timedOut: true,
          });
          continue;
        }
        entry.sink.stale = true;
        this.#entries.delete(profile);
      } catch (error) {
        delete entry.disposing;
        const code = toAgentError(error, 'provider_unavailable').code;
        failures.push({ phase: 'dispose', profile, code });
      }
    }
    return failures;
  }

  async #open(profile: string): Promise<PoolEntry> {
    const { registry, workspace, log } = this.#ctx;
    const resolved = registry.resolve(profile);
    if (!canAcceptWorkspace(resolved.descriptor, workspace.ownership).ok) {
      throw new RuntimeError(
        'workspace_ownership_violation',
        'workspace_invalid',
        `profile "${profile}": the provider does not accept this workspace ownership`,
        { details: { profile } },
      );
    }
    const refused = this.#ctx.warm?.refusal(profile, workspace);
    if (refused !== undefined) throw refused;
    const sinkState = { stale: false };
    const sink: ProviderEventSink = {
      emit: (input) => {
        try {
          if (sinkState.stale) return;
          const intake = intakeProviderEvent(input);
          // admitted, a diagnostic is recorded as it is: the log need not judge it again
          if (intake.ok && intake.value.type === 'diagnostic')
            log.append(intake.value, undefined, true);
          else log.append(contractDiagnostic(intake.ok ? 'not_a_session_payload' : intake.reason));
        } catch {
          // the sink never throws
        }
      },
    };
    const init = {
      options: structuredClone<JsonObject>(resolved.profile.sessionOptions),
      workspace: { root: workspace.root, ownership: workspace.ownership },
      sink,
      ...(resolved.profile.tools === undefined
        ? {}
        : { tools: structuredClone(resolved.profile.tools) }),
    };
    // a recorded thread is resumed once; a later opening of the profile starts afresh
    const record = this.#ctx.resumeFrom?.get(profile);
    this.#ctx.resumeFrom?.delete(profile);
    const forked = record === undefined ? this.#ctx.forkFrom?.get(profile) : undefined;
    this.#ctx.forkFrom?.delete(profile);
    const from = record !== undefined ? 'resume' : forked !== undefined ? 'fork' : undefined;
    // a resumed or forked session continues a thread: a warm one (a fresh thread) never stands in
    const warm = from === undefined ? this.#ctx.warm?.take(profile) : undefined;
    warm?.bind(sink);
    let created: unknown;
    try {
      const { provider } = resolved;
      created =
        warm?.session ??
        (await (record !== undefined && provider.resumeSession !== undefined
          ? provider.resumeSession(record, init)
          : forked !== undefined && provider.forkSession !== undefined
            ? provider.forkSession(forked, init)
            : provider.createSession(init)));
    } catch (error) {
      sinkState.stale = true;
      throw openingError(error, resolved, profile, from);
    }
    let session: ProviderSession;
    try {
      session = checkedProviderSession(created, profile);
    } catch (error) {
      sinkState.stale = true;
      throw error;
    }
    const refusal = this.#ctx.refusal();
    if (refusal !== undefined) {
      // the session began closing meanwhile: do not keep (or leak) the new provider session
      sinkState.stale = true;
      await session.dispose().catch(() => undefined);
      throw refusal;
    }
    const entry: PoolEntry = { resolved, session, sink: sinkState };
    this.#entries.set(profile, entry);
    // in the log before the first turn: a crash from here on leaves a resumable session
    await this.#record(profile, entry);
    return entry;
  }

  /** Logs every open provider session's recovery record that changed (before a fork). */
  async recordAll(): Promise<void> {
    for (const [profile, entry] of [...this.#entries]) await this.#record(profile, entry);
  }

  /** Logs the profile's recovery record again if a run changed it. Never throws. */
  async refreshRecord(profile: string, session: ProviderSession): Promise<void> {
    const entry = this.#entries.get(profile);
    if (entry?.session === session) await this.#record(profile, entry);
  }

  async #record(profile: string, entry: PoolEntry): Promise<void> {
    if (!isDurable(entry.resolved.descriptor, entry.session)) return;
    let exported: unknown;
    try {
      exported = await entry.session.exportRecoveryRecord?.();
    } catch {
      exported = undefined;
    }
    if (entry.sink.stale) return;
    const intake = intakeRecoveryRecord(exported, profile, this.#ctx.secrets);
    if (!intake.ok) {
      this.#ctx.log.append(contractDiagnostic(intake.reason));
      return;
    }
    const json = JSON.stringify(intake.record);
    if (entry.recorded === json) return;
    entry.recorded = json;
    const { recordKey, log, workspace } = this.#ctx;
    const mac =
      recordKey === undefined
        ? {}
        : { mac: recordMac(recordKey, log.sessionId, workspace.root, profile, intake.record) };
    log.append({ type: 'session.recovery_recorded', profile, record: intake.record, ...mac });
  }
}
