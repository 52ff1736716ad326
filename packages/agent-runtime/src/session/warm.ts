/**
 * Provider sessions started ahead of demand for profiles with `prewarm` (ADR-0037). Each is
 * created with the profile's init before any runtime session exists, handed to exactly one
 * runtime session's pool (`take`), and replaced in the background. One that stays unused for
 * the profile's `idleMs` is disposed and not replaced until the profile is asked for again.
 */
import { realpathSync, statSync } from 'node:fs';
import {
  canAcceptWorkspace,
  type JsonObject,
  type ProviderEventInput,
  type ProviderEventSink,
  type ProviderSession,
  toAgentError,
} from '@relvo-labs/agent-provider';
import { startTimer, type RuntimeClock } from '../clock.js';
import type { RuntimeConfig } from '../config.js';
import { configError, RuntimeError } from '../errors.js';
import type { ProviderRegistry } from '../registry.js';
import type { Grace } from './closing.js';
import { checkedProviderSession } from './provider-session.js';
import { WarmPoolBook, type WarmPoolListener, type WarmPoolState } from './warm-state.js';

/** What a warm session's provider emitted before a runtime session took it, replayed then. */
const EARLY_EMISSIONS = 32;

interface Spec {
  readonly count: number;
  readonly idleMs: number;
  readonly workspace: { readonly root: string; readonly ownership: 'borrowed' };
}

/** A session-level sink whose target is chosen later: the runtime session that takes it. */
class LateSink implements ProviderEventSink {
  #target: ProviderEventSink | undefined;
  readonly #early: ProviderEventInput[] = [];

  emit(input: ProviderEventInput): void {
    if (this.#target !== undefined) this.#target.emit(input);
    else if (this.#early.length < EARLY_EMISSIONS) this.#early.push(input);
  }

  bind(target: ProviderEventSink): void {
    this.#target = target;
    for (const input of this.#early.splice(0)) target.emit(input);
  }
}

interface Entry {
  readonly session: ProviderSession;
  readonly sink: LateSink;
  cancelIdle(): void;
}

/** A warm provider session, handed to one pool: `bind` routes its session sink there. */
export interface WarmSession {
  readonly session: ProviderSession;
  bind(sink: ProviderEventSink): void;
}

/** Each prewarmed profile's workspace, resolved now: a missing directory is refused at load. */
function specsOf(config: RuntimeConfig): Map<string, Spec> {
  const specs = new Map<string, Spec>();
  for (const [name, profile] of Object.entries(config.profiles)) {
    if (profile.prewarm === undefined) continue;
    const path = `profiles.${name}.prewarm.workspace`;
    let root: string;
    try {
      root = realpathSync(profile.prewarm.workspace);
      if (!statSync(root).isDirectory()) throw new Error('not a directory');
    } catch {
      throw configError('workspace_invalid', `profile "${name}": ${path} is not a directory`, {
        profile: name,
        path,
      });
    }
    const { count, idleMs } = profile.prewarm;
    specs.set(name, { count, idleMs, workspace: { root, ownership: 'borrowed' } });
  }
  return specs;
}

export class WarmSessions {
  readonly #registry: ProviderRegistry;
  readonly #clock: RuntimeClock;
  readonly #specs: Map<string, Spec>;
  readonly #ready = new Map<string, Entry[]>();
  readonly #starting = new Map<string, number>();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #book: WarmPoolBook;
  #closed = false;

  /** Refuses, at load, a prewarm whose workspace is missing or whose provider refuses it. */
  constructor(registry: ProviderRegistry, config: RuntimeConfig, clock: RuntimeClock) {
    this.#registry = registry;
    this.#clock = clock;
    this.#specs = specsOf(config);
    this.#book = new WarmPoolBook(clock);
    for (const [name, spec] of this.#specs) {
      const { descriptor } = registry.resolve(name);
      if (!canAcceptWorkspace(descriptor, spec.workspace.ownership).ok) {
        throw configError(
          'workspace_invalid',
          `profile "${name}": the provider does not accept a borrowed workspace`,
          { profile: name, path: `profiles.${name}.prewarm` },
        );
      }
    }
  }

  /** What each prewarmed profile holds now (a copy: the caller may keep it). */
  state(): WarmPoolState {
    return {
      profiles: [...this.#specs].map(([profile, spec]) =>
        this.#book.profileState(profile, {
          target: spec.count,
          warm: this.#ready.get(profile)?.length ?? 0,
          starting: this.#starting.get(profile) ?? 0,
        }),
      ),
    };
  }

  /** `listener` hears the whole state after each change (start, take, failure, idle, close). */
  watch(listener: WarmPoolListener): () => void {
    if (typeof listener !== 'function') {
      throw configError('option_invalid', 'watchWarmPool needs a listener function', {
        path: 'listener',
      });
    }
    return this.#book.watch(listener);
  }

  #changed(): void {
    this.#book.publish(() => this.state());
  }

  /** Starts what every prewarmed profile lacks. */
  fillAll(): void {
    for (const name of this.#specs.keys()) this.#fill(name);
  }

  /**
   * Undefined when `profile` may open a session in `workspace`, else the refusal: a prewarmed
   * profile's sessions are all started in its prewarm workspace, so no other one is accepted.
   */
  refusal(
    profile: string,
    workspace: { root: string; ownership: string },
  ): RuntimeError | undefined {
    const spec = this.#specs.get(profile);
    if (spec === undefined) return undefined;
    if (workspace.root === spec.workspace.root && workspace.ownership === 'borrowed') return;
    return configError(
      'workspace_invalid',
      `profile "${profile}" is prewarmed: its sessions use its prewarm workspace, borrowed`,
      { profile, path: 'workspace', details: { prewarm: `profiles.${profile}.prewarm.workspace` } },
    );
  }

  /** A warm session of `profile`, now the caller's alone; another is started in its place. */
  take(profile: string): WarmSession | undefined {
    const entry = this.#ready.get(profile)?.shift();
    this.#fill(profile);
    if (entry === undefined) return undefined;
    entry.cancelIdle();
    this.#changed();
    return {
      session: entry.session,
      bind: (sink) => {
        entry.sink.bind(sink);
      },
    };
  }

  /**
   * Disposes every warm session at once, one bounded wait for all (and for starts in flight,
   * which dispose what they open once closed): a hung dispose is reported, never waited past.
   */
  async close(grace: Grace): Promise<JsonObject[]> {
    this.#closed = true;
    const failures: JsonObject[] = [];

    const states: { readonly profile: string; done: boolean }[] = [];
    const disposals = [...this.#ready].flatMap(([profile, entries]) =>
      entries.splice(0).map(async (entry) => {
        entry.cancelIdle();
        const state = { profile, done: false };
        states.push(state);
        try {
          await entry.session.dispose();
        } catch (error) {
          failures.push({
            phase: 'dispose',
            profile,
            code: toAgentError(error, 'provider_unavailable').code,
          });
        }
        state.done = true;
      }),
    );
    // the warm sessions left the set above: a watcher hears it before the disposals settle
    this.#changed();
    if (!(await grace(Promise.all([...disposals, Promise.allSettled([...this.#inFlight])]))).ok) {
      for (const { profile } of states.filter((st) => !st.done)) {
        failures.push({ phase: 'dispose', profile, code: 'provider_unavailable', timedOut: true });
      }
    }
    return failures;
  }

  #fill(profile: string): void {
    const spec = this.#specs.get(profile);
    if (spec === undefined || this.#closed) return;
    const have = (this.#ready.get(profile)?.length ?? 0) + (this.#starting.get(profile) ?? 0);
    for (let i = have; i < spec.count; i += 1) {
      this.#starting.set(profile, (this.#starting.get(profile) ?? 0) + 1);
      const started = this.#start(profile, spec).finally(() => {
        this.#starting.set(profile, (this.#starting.get(profile) ?? 1) - 1);
        this.#inFlight.delete(started);
        this.#changed();
      });
      this.#inFlight.add(started);
    }
    if (have < spec.count) this.#changed();
  }

  /** One warm session; a failure is not retried until the profile is asked for again. */
  async #start(profile: string, spec: Spec): Promise<void> {
    const sink = new LateSink();
    let session: ProviderSession;
    try {
      const { provider, profile: p } = this.#registry.resolve(profile);
      const created: unknown = await provider.createSession({
        options: structuredClone<JsonObject>(p.sessionOptions),
        workspace: { ...spec.workspace },
        sink,
        ...(p.tools === undefined ? {} : { tools: structuredClone(p.tools) }),
      });
      session = checkedProviderSession(created, profile);
    } catch (error) {
      // counted and typed for the pool's state; the cold path opens the session and reports why,
      // with the runtime session's id
      if (!this.#closed) this.#book.failed(profile, error);
      return;
    }
    if (this.#closed) {
      await session.dispose().catch(() => undefined);
      return;
    }
    const entry: Entry = {
      session,
      sink,
      cancelIdle: startTimer(this.#clock, spec.idleMs, () => {
        const entries = this.#ready.get(profile) ?? [];
        const at = entries.indexOf(entry);
        if (at < 0) return;
        entries.splice(at, 1);
        this.#changed();
        const disposed = session.dispose().then(
          () => undefined,
          () => undefined,
        );
        // a shutdown meanwhile waits for it like for a start
        this.#inFlight.add(disposed);
        void disposed.finally(() => this.#inFlight.delete(disposed));
      }),
    };
    this.#ready.set(profile, [...(this.#ready.get(profile) ?? []), entry]);
  }
}
