import {
  canAcceptWorkspace,
  captureJson,
  interruptPreservesSession,
  isCommandAllowed,
  isProviderRejection,
  turnInputSchema,
  type AgentInteraction,
  type InteractionResponse,
  type JsonObject,
  type ProviderEventSink,
  type ProviderSession,
  type SessionCommand,
  type SessionState,
  type TurnInput,
  type WorkspaceOwnership,
} from '@relvo-labs/agent-provider';
import { within, type RuntimeClock } from '../clock.js';
import { providerRefusal, rejection, RuntimeError } from '../errors.js';
import type { IdFactory } from '../ids.js';
import type { ProviderRegistry } from '../registry.js';
import type { EventSubscription, SubscribeOptions } from '../subscription.js';
import {
  disposeAll,
  settleAfterDispose,
  type Grace,
  type ProviderSessionEntry,
} from './closing.js';
import { contractDiagnostic, intakeProviderEvent } from './intake.js';
import { checkedProviderSession } from './provider-session.js';
import type { SessionLog } from './log.js';
import { InteractionLifecycle } from './interactions.js';
import { RunDriver } from './run.js';
import type { TurnResult } from './turn-result.js';

export interface SubmitTurnOptions {
  /** A plain string is sent as one text part. */
  readonly input: string | TurnInput;
  /** Runs this turn on that profile; default: the session's, else the config's default. */
  readonly profile?: string;
}

export interface TurnHandle {
  readonly turnId: string;
  readonly runId: string;
  readonly profile: string;
  readonly providerId: string;
  /** Settles once the run finished and its events are durable; never rejects. */
  readonly done: Promise<TurnResult>;
}

export interface RuntimeSession {
  readonly id: string;
  readonly state: SessionState;
  readonly defaultProfile: string;
  /** The run in flight, if any (at most one per session). */
  readonly activeRunId: string | undefined;
  submitTurn(options: SubmitTurnOptions): Promise<TurnHandle>;
  /** Interactions not yet settled, in the order they were raised. */
  pendingInteractions(): AgentInteraction[];
  /** Validated against the request before the provider sees it; durable before it resolves. */
  respond(interactionId: string, response: InteractionResponse): Promise<void>;
  /** Interrupts the active run. */
  interrupt(reason?: string): Promise<void>;
  /** Disposes every provider session of this session; retryable after a failed dispose. */
  close(): Promise<void>;
  subscribe(options?: SubscribeOptions): EventSubscription;
}

export interface SessionContext {
  readonly id: string;
  readonly log: SessionLog;
  readonly clock: RuntimeClock;
  readonly ids: IdFactory;
  readonly registry: ProviderRegistry;
  readonly defaultProfile: string;
  readonly workspace: { readonly root: string; readonly ownership: WorkspaceOwnership };
  readonly closeGraceMs: number;
  subscribe(options?: SubscribeOptions): EventSubscription;
  onClosed(session: SessionImpl): void;
}

function notAllowed(state: SessionState, command: SessionCommand): RuntimeError {
  const closed = state === 'closed' || state === 'failed' || state === 'closing';
  return new RuntimeError(
    'session_closed',
    closed ? 'session_closed' : 'session_not_ready',
    `the session does not accept ${command} while ${state}`,
    { details: { state } },
  );
}

function toTurnInput(input: string | TurnInput): TurnInput {
  const value: unknown =
    typeof input === 'string' ? { parts: [{ type: 'text', text: input }] } : input;
  const captured = captureJson(value);
  const parsed = captured.ok ? turnInputSchema.safeParse(captured.value) : undefined;
  if (parsed?.success !== true) {
    throw new RuntimeError(
      'invalid_request',
      'turn_input_invalid',
      'the turn input does not parse as a TurnInput',
    );
  }
  return parsed.data;
}

export class SessionImpl implements RuntimeSession {
  private current: SessionState = 'ready';
  private readonly providerSessions = new Map<string, ProviderSessionEntry>();
  private readonly opening = new Map<string, Promise<ProviderSessionEntry>>();
  private readonly interactions: InteractionLifecycle;
  private run: RunDriver | undefined;
  private admitting: Promise<unknown> | undefined;
  private closingAttempt: Promise<void> | undefined;
  /** Rejects a submitTurn still waiting for its provider session once close gave up on it. */
  private abandonOpening!: (error: RuntimeError) => void;
  private readonly abandoned = new Promise<never>((_resolve, reject) => {
    this.abandonOpening = reject;
  });

  constructor(private readonly ctx: SessionContext) {
    const { id: sessionId, log, clock, ids } = ctx;
    this.interactions = new InteractionLifecycle({ sessionId, log, clock, ids });
    this.abandoned.catch(() => undefined);
  }

  get id(): string {
    return this.ctx.id;
  }

  get state(): SessionState {
    return this.current;
  }

  get defaultProfile(): string {
    return this.ctx.defaultProfile;
  }

  get activeRunId(): string | undefined {
    return this.run?.runId;
  }

  private require(command: SessionCommand): void {
    if (!isCommandAllowed(this.current, command)) throw notAllowed(this.current, command);
  }

  private moveTo(to: SessionState): void {
    this.ctx.log.append({ type: 'session.state_changed', from: this.current, to });
    this.current = to;
  }

  submitTurn(options: SubmitTurnOptions): Promise<TurnHandle> {
    try {
      this.require('submit_turn');
      // a log that lost envelopes records nothing more: no turn may run unrecorded
      if (this.ctx.log.failed !== undefined) throw this.ctx.log.failed;
      if (this.run !== undefined || this.admitting !== undefined) {
        throw new RuntimeError(
          'illegal_state_transition',
          'session_busy',
          'the session already has an active run',
          {
            details: this.run === undefined ? {} : { activeRunId: this.run.runId },
          },
        );
      }
      const input = toTurnInput(options.input);
      const profile = options.profile ?? this.ctx.defaultProfile;
      const admission = this.admit(input, profile);
      this.admitting = admission;
      void admission.then(
        () => {
          this.admitting = undefined;
        },
        () => {
          this.admitting = undefined;
        },
      );
      return admission;
    } catch (error) {
      return rejection(error);
    }
  }

  private async admit(input: TurnInput, profile: string): Promise<TurnHandle> {
    // provider, options and session are settled before the turn exists: a refusal is never mid-turn
    const entry = await Promise.race([this.providerSession(profile), this.abandoned]);
    this.require('submit_turn');
    const turnId = this.ctx.ids('trn');
    const runId = this.ctx.ids('run');
    const providerId = entry.resolved.descriptor.providerId;
    const log = this.ctx.log;
    log.append({ type: 'turn.started', turnId, profile, providerId, input });
    log.append({ type: 'turn.state_changed', turnId, from: 'accepted', to: 'running' });
    log.append({ type: 'run.started', turnId, attempt: 1, profile, providerId }, runId);
    const run = new RunDriver(
      {
        log,
        clock: this.ctx.clock,
        descriptor: entry.resolved.descriptor,
        providerSession: entry.session,
        profile,
        interactions: this.interactions,
        ...(entry.resolved.profile.interactionExpiry === undefined
          ? {}
          : { expiry: entry.resolved.profile.interactionExpiry }),
        onFinished: (finished, uncertainStart) => {
          if (this.run === finished) this.run = undefined;
          // an uncertain start leaves the provider session in an unknown state: use a fresh one
          if (uncertainStart) this.discard(profile, entry);
        },
      },
      runId,
      turnId,
    );
    this.run = run;
    run.start(input);
    await log.durable();
    return { turnId, runId, profile, providerId, done: run.done };
  }

  /** One provider session per profile per runtime session, opened on first use and reused. */
  private providerSession(profile: string): Promise<ProviderSessionEntry> {
    const known = this.providerSessions.get(profile);
    if (known !== undefined) return Promise.resolve(known);
    let opening = this.opening.get(profile);
    if (opening === undefined) {
      opening = this.openProviderSession(profile).finally(() => this.opening.delete(profile));
      this.opening.set(profile, opening);
    }
    return opening;
  }

  private async openProviderSession(profile: string): Promise<ProviderSessionEntry> {
    const resolved = this.ctx.registry.resolve(profile);
    const where = { profile, path: `profiles.${profile}.sessionOptions` };
    const workspaceCheck = canAcceptWorkspace(resolved.descriptor, this.ctx.workspace.ownership);
    if (!workspaceCheck.ok) {
      throw new RuntimeError(
        'workspace_ownership_violation',
        'workspace_invalid',
        `profile "${profile}": the provider does not accept this workspace ownership`,
        {
          details: { profile },
        },
      );
    }
    const sinkState = { stale: false };
    const sink: ProviderEventSink = {
      emit: (input) => {
        try {
          if (sinkState.stale) return;
          const intake = intakeProviderEvent(input);
          if (intake.ok && intake.value.type === 'diagnostic') this.ctx.log.append(intake.value);
          else
            this.ctx.log.append(
              contractDiagnostic(intake.ok ? 'not_a_session_payload' : intake.reason),
            );
        } catch {
          // the sink never throws
        }
      },
    };
    let created: unknown;
    try {
      created = await resolved.provider.createSession({
        options: structuredClone<JsonObject>(resolved.profile.sessionOptions),
        workspace: { root: this.ctx.workspace.root, ownership: this.ctx.workspace.ownership },
        sink,
      });
    } catch (error) {
      sinkState.stale = true;
      if (isProviderRejection(error)) {
        const refused = error.agentError.code === 'invalid_request';
        throw providerRefusal(
          error,
          refused ? 'session_options_refused' : 'provider_rejected',
          refused
            ? `profile "${profile}": provider "${resolved.profile.provider}" refused its sessionOptions`
            : `profile "${profile}": provider "${resolved.profile.provider}" refused to open a session`,
          refused ? where : { profile },
        );
      }
      throw new RuntimeError(
        'provider_unavailable',
        'provider_unknown_outcome',
        `profile "${profile}": the provider session could not be opened`,
        {
          details: { profile },
          cause: error,
        },
      );
    }
    let session: ProviderSession;
    try {
      session = checkedProviderSession(created, profile);
    } catch (error) {
      sinkState.stale = true;
      throw error;
    }
    const entry: ProviderSessionEntry = { resolved, session, sink: sinkState };
    if (this.current !== 'ready') {
      // the session began closing meanwhile: do not keep (or leak) the new provider session
      sinkState.stale = true;
      await session.dispose().catch(() => undefined);
      throw notAllowed(this.current, 'submit_turn');
    }
    this.providerSessions.set(profile, entry);
    return entry;
  }

  private discard(profile: string, entry: ProviderSessionEntry): void {
    if (this.providerSessions.get(profile) !== entry) return;
    this.providerSessions.delete(profile);
    entry.sink.stale = true;
    entry.session.dispose().catch(() => undefined);
  }

  pendingInteractions(): AgentInteraction[] {
    return this.interactions.pending();
  }

  respond(interactionId: string, response: InteractionResponse): Promise<void> {
    try {
      this.require('respond_to_interaction');
    } catch (error) {
      return rejection(error);
    }
    return this.interactions.respond(interactionId, response);
  }

  interrupt(reason?: string): Promise<void> {
    try {
      this.require('interrupt_run');
      const run = this.run;
      if (run === undefined) {
        throw new RuntimeError('unknown_run', 'no_active_run', 'the session has no active run');
      }
      const profile = run.profile;
      return run.interrupt(reason).then(() => {
        const entry = this.providerSessions.get(profile);
        // docs/spi.md §4.6: an interrupt that does not preserve the provider session retires it
        if (
          entry?.session === run.providerSession &&
          !interruptPreservesSession(entry.resolved.descriptor)
        ) {
          void run.done.then(() => {
            this.discard(profile, entry);
          });
        }
      });
    } catch (error) {
      return rejection(error);
    }
  }

  close(): Promise<void> {
    if (this.current === 'closed' || this.current === 'failed') return Promise.resolve();
    this.closingAttempt ??= this.attemptClose().finally(() => {
      this.closingAttempt = undefined;
    });
    return this.closingAttempt;
  }

  private async attemptClose(): Promise<void> {
    if (this.current === 'ready') this.moveTo('closing');
    // every wait of close is bounded: a provider that never answers cannot hold it
    const grace: Grace = (work) => within(this.ctx.clock, this.ctx.closeGraceMs, work);
    if (this.admitting !== undefined && !(await grace(this.admitting.catch(() => 0))).ok) {
      // a provider session still opening is disposed when it arrives (openProviderSession)
      this.abandonOpening(notAllowed(this.current, 'submit_turn'));
    }
    const run = this.run;
    if (run !== undefined && !run.finished)
      await grace(run.interrupt('session closing').catch(() => 0));
    const failures = await disposeAll(this.providerSessions, grace);
    if (failures.length > 0) {
      await this.ctx.log.durable();
      throw new RuntimeError(
        'provider_unavailable',
        'dispose_failed',
        'a provider session could not be disposed; retry close',
        {
          details: { failures },
        },
      );
    }
    if (run !== undefined && !run.finished) await settleAfterDispose(run, grace);
    this.moveTo('closed');
    this.ctx.log.append({ type: 'session.closed', reason: 'requested' });
    this.ctx.onClosed(this);
    await this.ctx.log.durable();
  }

  subscribe(options?: SubscribeOptions): EventSubscription {
    return this.ctx.subscribe(options);
  }
}
