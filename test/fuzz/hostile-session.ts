/**
 * One fuzz case: a Codex session on a fake transport (every outbound frame checked against the
 * pinned schema) driven through a generated sequence of hostile peer frames and host calls.
 * `runCase` throws on the first broken invariant:
 *   - every started run settles exactly once, and its sink stays silent afterwards;
 *   - no exception escapes a sink, a promise or the event loop; every refusal is a typed
 *     ProviderRejection and every termination validates against the SPI schema;
 *   - no native id (thread, turn, item, request) and no canary secret in any event or error;
 *   - nothing waits past its deadline: once the request deadline has passed (fake clock) every
 *     startRun/interrupt/respond promise has settled, and after dispose every run has.
 */
import { AgentRuntimeError, isProviderRejection } from '@relvo-labs/agent-provider';
import { vi } from 'vitest';
import { JsonlDecoder } from '../../src/jsonl/decoder.js';
import { createFakeTransport, type FakeTransport } from '../support/fake-transport.js';
import { CANARY, REQUEST_TIMEOUT_MS, type Action, type Addressee } from './hostile-actions.js';
import { caseReport, checkInvariants, type CaseReport, type TrackedRun } from './hostile-checks.js';
import {
  collectIds,
  FOREIGN_THREAD,
  hostileLine,
  MAX_LINE,
  mutate,
  STRAY_TURN,
  THREAD,
  turnResult,
  type CaseOptions,
} from './hostile-frames.js';
import { hostCalls, openSession } from './hostile-host.js';
import { frameTemplates } from './templates.js';

export { CANARY };
export { caseArbitrary, type Action } from './hostile-actions.js';

/** Runs one case to the end; throws on the first broken invariant. */
export async function runCase(
  actions: readonly Action[],
  options: CaseOptions = {},
): Promise<CaseReport> {
  const templates = frameTemplates();
  const escaped: unknown[] = [];
  const onEscape = (e: unknown): void => {
    escaped.push(e);
  };
  process.on('unhandledRejection', onEscape);
  process.on('uncaughtException', onEscape);
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
  const transport: FakeTransport = createFakeTransport();
  const published: unknown[] = [];
  const failures: unknown[] = [];
  const nativeIds = new Set<string>([THREAD, FOREIGN_THREAD, STRAY_TURN]);
  const pending = new Set<Promise<unknown>>();
  const runs: TrackedRun[] = [];
  const pushed: Record<string, unknown>[] = [];
  const liveTurns: string[] = [];
  const issuedTurns: string[] = [];
  let ended = false;
  let disposed: Promise<void> | undefined;
  let requestCounter = 0;
  const answeredTurnStarts = new Set<unknown>();

  const tick = async (n = 3): Promise<void> => {
    for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
  };
  const track = <T>(p: Promise<T>, onValue?: (v: T) => void): void => {
    const tracked = p.then(
      (v) => {
        onValue?.(v);
      },
      (e: unknown) => {
        failures.push(e);
        // typed: a definite refusal, or (an interrupt whose outcome is unknown) the SPI's
        // AgentRuntimeError, which a runtime reads as an unknown outcome
        if (!isProviderRejection(e) && !(e instanceof AgentRuntimeError))
          throw new Error(`an untyped rejection escaped: ${String(e)}`);
      },
    );
    pending.add(tracked);
    void tracked.then(
      () => pending.delete(tracked),
      (e: unknown) => {
        escaped.push(e);
        pending.delete(tracked);
      },
    );
  };
  // the peer's stream ends with an explicit end/fail, or when disposal closes the transport
  const streamOver = (): boolean => ended || transport.closeCalls > 0;
  const push = async (frame: unknown): Promise<void> => {
    if (streamOver()) return;
    collectIds(frame, nativeIds);
    pushed.push(frame as Record<string, unknown>);
    transport.push(frame);
    await transport.drained();
  };
  const decoder = new JsonlDecoder({
    onFrame: (v) => {
      if (!streamOver()) transport.push(v);
    },
    maxLineLength: MAX_LINE,
  });
  const turnFor = (to: Addressee, which: number): string => {
    if (to === 'stray') return STRAY_TURN;
    const list = to === 'live' && liveTurns.length > 0 ? liveTurns : issuedTurns;
    return list[which % Math.max(1, list.length)] ?? STRAY_TURN;
  };
  const fill = (text: string, to: Addressee, which: number): Record<string, unknown> =>
    JSON.parse(
      text
        .split('{{H}}')
        .join(to === 'foreign' ? FOREIGN_THREAD : THREAD)
        .split('{{T}}')
        .join(turnFor(to, which)),
    ) as Record<string, unknown>;
  /** A frame or request action's template, addressed and mutated as the action says. */
  const addressed = (
    text: string,
    action: Extract<Action, { t: 'frame' | 'request' }>,
  ): Record<string, unknown> =>
    mutate(
      fill(text, action.to, action.which),
      action.mutation,
      action.leaf,
      action.value,
      options,
    );
  const turnStartRequests = (): Record<string, unknown>[] =>
    transport.sent.filter((f) => f.method === 'turn/start' && !answeredTurnStarts.has(f.id));

  try {
    const session = await openSession(transport, { published, push, tick });
    const { startRun, respond, answerLatest } = hostCalls({
      session,
      published,
      runs,
      track,
      tick,
    });
    const scenarios = [...new Set(templates.map((x) => x.scenario))];
    let scenarioRuns = 0;

    for (const action of actions) {
      switch (action.t) {
        case 'start':
          startRun(`run-${action.ref}`, action.throwingSink);
          await tick();
          break;
        case 'scenario': {
          const name = scenarios[action.scenario % scenarios.length]!;
          const before = transport.sent.length;
          startRun(`scenario-${scenarioRuns++}`, false);
          await tick();
          const request = transport.sent.slice(before).find((f) => f.method === 'turn/start');
          if (request === undefined) break; // refused (busy, fenced, closed)
          answeredTurnStarts.add(request.id);
          const turnId = `turn-NATIVE-${issuedTurns.length}`;
          issuedTurns.push(turnId);
          liveTurns.push(turnId);
          await push({ id: request.id, result: { turn: turnResult(turnId) } });
          const frames = templates.filter((x) => x.scenario === name).slice(0, action.cut);
          for (const [i, tpl] of frames.entries()) {
            const how = (i + action.leaf) % action.mutateEvery === 0 ? action.mutation : 'none';
            const frame = mutate(
              fill(tpl.text, 'live', liveTurns.length - 1),
              how,
              action.leaf,
              action.value,
              options,
            );
            if (tpl.serverRequest) frame.id = requestCounter++;
            await push(frame);
            if (tpl.serverRequest) await answerLatest(i);
          }
          break;
        }
        case 'replyTurnStart': {
          const open = turnStartRequests();
          const request = open[action.which % Math.max(1, open.length)];
          if (request === undefined) break;
          answeredTurnStarts.add(request.id);
          const turnId = `turn-NATIVE-${issuedTurns.length}`;
          const result = { turn: turnResult(turnId) };
          if (action.kind === 'ok' || action.kind === 'twice') {
            issuedTurns.push(turnId);
            liveTurns.push(turnId);
            await push({ id: request.id, result });
            if (action.kind === 'twice') await push({ id: request.id, result });
          } else if (action.kind === 'error') {
            await push({ id: request.id, error: { code: -32600, message: `refused ${CANARY}` } });
          } else if (action.kind === 'wrongId') {
            await push({ id: 987654, result });
          } else {
            await push({ id: request.id, result: { turn: { id: 42, status: CANARY } } });
          }
          await tick();
          break;
        }
        case 'frame': {
          const tpl = templates[action.template % templates.length]!;
          const frame = addressed(tpl.text, action);
          if (tpl.serverRequest) frame.id = `req-NATIVE-${requestCounter++}`;
          if (frame.method === 'turn/completed') {
            const id = (frame.params as { turn?: { id?: unknown } } | undefined)?.turn?.id;
            const at = liveTurns.indexOf(String(id));
            if (at >= 0) liveTurns.splice(at, 1);
          }
          await push(frame);
          break;
        }
        case 'duplicate': {
          const again = pushed[pushed.length - 1 - action.back];
          if (again !== undefined) await push(again);
          break;
        }
        case 'request': {
          const requests = templates.filter((x) => x.serverRequest);
          const tpl = requests[action.template % Math.max(1, requests.length)];
          if (tpl === undefined) break;
          const frame = addressed(tpl.text, action);
          frame.id = action.stringId ? `req-NATIVE-${requestCounter++}` : requestCounter++;
          await push(frame);
          break;
        }
        case 'bytes': {
          if (streamOver()) break;
          const tpl = templates[action.seed % templates.length]!;
          const text = JSON.stringify(fill(tpl.text, 'live', action.seed));
          const line = hostileLine(action, text, turnFor('live', 0));
          decoder.write(Buffer.concat([line, Buffer.from('\n')]));
          await transport.drained();
          break;
        }
        case 'interrupt': {
          const tracked = runs[action.which % Math.max(1, runs.length)];
          if (tracked !== undefined) track(tracked.run.interrupt('stop'));
          await tick();
          break;
        }
        case 'replyInterrupt': {
          const open = transport.sent.filter((f) => f.method === 'turn/interrupt');
          const request = open[action.which % Math.max(1, open.length)];
          if (request === undefined) break;
          await push(
            action.kind === 'ok'
              ? { id: request.id, result: {} }
              : { id: request.id, error: { code: -32600, message: `no active turn ${CANARY}` } },
          );
          break;
        }
        case 'respond':
          respond(action.which, action.answer, action.bogus);
          await tick();
          break;
        case 'dispose':
          disposed ??= session.dispose();
          track(disposed);
          await tick();
          break;
        case 'end':
          if (!streamOver()) {
            ended = true;
            decoder.end();
            if (action.fail) transport.fail(new Error(`pipe broke ${CANARY}`));
            else transport.end();
            await tick();
          }
          break;
        case 'tick':
          await vi.advanceTimersByTimeAsync(action.ms);
          await tick();
          break;
      }
    }

    // every request-bound promise has a deadline
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS + 1);
    await tick(10);
    if (pending.size > 0 && disposed === undefined && !ended) {
      throw new Error(`${pending.size} host call(s) still pending after their deadline`);
    }
    // disposal settles everything else
    disposed ??= session.dispose();
    await disposed.catch((e: unknown) => {
      if (!isProviderRejection(e)) throw e;
    });
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS + 1);
    await tick(10);
    if (pending.size > 0) throw new Error(`${pending.size} host call(s) pending after dispose`);
    checkInvariants({ runs, published, failures, nativeIds, escaped, transport });
    return caseReport(published, runs);
  } finally {
    vi.useRealTimers();
    process.off('unhandledRejection', onEscape);
    process.off('uncaughtException', onEscape);
  }
}
