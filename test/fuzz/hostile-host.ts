/** The host's side of a fuzz case: the session it opens, runs it starts, interactions it answers. */
import type {
  InteractionResponse,
  ProviderEventInput,
  ProviderEventSink,
  ProviderSession,
} from '@relvo-labs/agent-provider';
import { createCodexProvider, type CodexProviderSession } from '../../src/index.js';
import type { FakeTransport } from '../support/fake-transport.js';
import { BASELINE, recordedUserAgentOf } from '../support/releases.js';
import { CANARY, REQUEST_TIMEOUT_MS } from './hostile-actions.js';
import { THREAD, WORKSPACE } from './hostile-frames.js';
import type { TrackedRun } from './hostile-checks.js';

export interface HostContext {
  readonly session: ProviderSession;
  /** Every event the session and its runs published. */
  readonly published: unknown[];
  readonly runs: TrackedRun[];
  /** Follows a host call's promise to its end (a rejection must be typed). */
  readonly track: <T>(p: Promise<T>, onValue?: (v: T) => void) => void;
  readonly tick: (n?: number) => Promise<void>;
}

export function hostCalls({ session, published, runs, track, tick }: HostContext) {
  const startRun = (ref: string, throwingSink: boolean): void => {
    const events: ProviderEventInput[] = [];
    const sink: ProviderEventSink = {
      emit(e) {
        events.push(e);
        published.push(e);
        const tracked = runs.find((r) => r.events === events);
        if (tracked?.termination !== undefined) tracked.eventsAfterSettle += 1;
        if (throwingSink) throw new Error(`sink exploded ${CANARY}`);
      },
    };
    track(
      session.startRun({
        input: { parts: [{ type: 'text', text: 'hello' }] },
        sink,
        runRef: ref,
      }),
      (run) => {
        if (runs.some((r) => r.run === run)) return; // an idempotent retry shares the run
        const tracked: TrackedRun = {
          run,
          events,
          termination: undefined,
          settledCount: 0,
          eventsAfterSettle: 0,
        };
        runs.push(tracked);
        void run.completion.then((t) => {
          tracked.settledCount += 1;
          tracked.termination = t;
        });
      },
    );
  };
  const respond = (index: number, answer: number, bogus: boolean): void => {
    const requested = published.flatMap((e) => {
      const p = (e as ProviderEventInput).payload;
      return p.type === 'interaction.requested' ? [p] : [];
    });
    const target = requested[index % Math.max(1, requested.length)];
    const ref = bogus || target === undefined ? `approval-${CANARY}-1` : target.providerRef;
    const answers: InteractionResponse[] = [
      { kind: 'approval', decision: 'approved', mode: 'once' },
      { kind: 'approval', decision: 'approved', mode: 'session' },
      { kind: 'approval', decision: 'denied' },
      { kind: 'question_set', answers: {} },
      {
        kind: 'question_set',
        answers: { [CANARY]: { kind: 'text', text: CANARY } },
      } as unknown as InteractionResponse,
      {
        kind: 'approval',
        decision: 'approved',
        mode: 'always',
      } as unknown as InteractionResponse,
    ];
    track(session.respondToInteraction(ref, answers[answer % answers.length]!));
  };
  const answerLatest = async (seed: number): Promise<void> => {
    const count = published.filter(
      (e) => (e as ProviderEventInput).payload.type === 'interaction.requested',
    ).length;
    if (count > 0) respond(count - 1, seed, false);
    await tick();
  };
  return { startRun, respond, answerLatest };
}

/** A session on `transport` opened through the handshake as the baseline's codex answers it. */
export async function openSession(
  transport: FakeTransport,
  {
    published,
    push,
    tick,
  }: Pick<HostContext, 'published' | 'tick'> & {
    push: (frame: unknown) => Promise<void>;
  },
): Promise<CodexProviderSession> {
  const provider = createCodexProvider({
    transport: () => transport,
    approvals: 'bridge',
    questions: 'bridge',
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
  });
  const sessionSink: ProviderEventSink = { emit: (e) => published.push(e) };
  const opening = provider.createSession({
    options: {},
    workspace: { root: WORKSPACE, ownership: 'borrowed' },
    sink: sessionSink,
  });
  await tick();
  const init = transport.sent.find((f) => f.method === 'initialize');
  await push({
    id: init?.id,
    result: {
      userAgent: recordedUserAgentOf(BASELINE),
      codexHome: '/home/fuzz/.codex',
      platformFamily: 'unix',
      platformOs: 'linux',
    },
  });
  await tick();
  const start = transport.sent.find((f) => f.method === 'thread/start');
  await push({ id: start?.id, result: { thread: { id: THREAD, ephemeral: true } } });
  return opening;
}
