/**
 * A conformance harness for the Codex provider: every session gets a fake transport from
 * test/support, and a scripted app-server (modelled on the baseline's fixtures/transcripts) answers
 * the adapter's requests and plays the scenario the kit asked for when `pump()` runs.
 */
import type {
  ConformanceHarness,
  ConformanceScenario,
  NativeEffects,
} from '@relvo-labs/agent-provider/testing';
import {
  createCodexProvider,
  type CodexProviderOptions,
  type CodexIterableTransport,
} from '../../src/index.js';
import { createFakeTransport, type FakeTransport } from './fake-transport.js';
import { FakeThreadHistory } from './fake-thread-history.js';
import {
  agentDelta,
  approvalRequest,
  commandItem,
  NATIVE_ID_PREFIXES,
  questionRequest,
  SECRET,
  tokenUsage,
  turnCompleted,
  turnObject,
  WORKSPACE,
  type Frame,
} from './conformance-frames.js';
import { BASELINE, recordedUserAgentOf } from './releases.js';

const USER_AGENT = recordedUserAgentOf(BASELINE);

interface Turn {
  readonly id: string;
  readonly scenario: ConformanceScenario;
  done: boolean;
}

interface Connection {
  readonly fake: FakeTransport;
  readonly threadId: string;
  seen: number;
  nextServerRequestId: number;
  readonly turns: Map<string, Turn>;
  /** Server requests still awaiting a reply, by id. */
  readonly serverRequests: Map<number, Turn>;
  readonly history: FakeThreadHistory;
}

/** Provider options on top of the bridged approvals and questions (every option on). */
export type HarnessOptions = Pick<
  CodexProviderOptions,
  'toolActivity' | 'fileChanges' | 'persistence' | 'fileReferences'
>;

export function codexHarness(options: HarnessOptions = {}): ConformanceHarness {
  return {
    secretMarkers: [SECRET],
    nativeIdentifiers: [...NATIVE_ID_PREFIXES],
    create() {
      const connections: Connection[] = [];
      const queue: ConformanceScenario[] = [];
      const effects = { sessions: 0, runs: 0, responses: 0, interrupts: 0, disposals: 0 };
      let failNextClose = false;
      let ids = 0;
      const nextId = (prefix: string): string => `${prefix}${String((ids += 1))}`;

      const transport = (): CodexIterableTransport => {
        const fake = createFakeTransport();
        connections.push({
          fake,
          threadId: nextId('thread-native-'),
          seen: 0,
          nextServerRequestId: 0,
          turns: new Map(),
          serverRequests: new Map(),
          history: new FakeThreadHistory(),
        });
        effects.sessions += 1;
        return {
          send: (message) => fake.send(message),
          incoming: fake.incoming,
          async close() {
            if (failNextClose) {
              failNextClose = false;
              throw new Error('injected teardown failure');
            }
            await fake.close();
            effects.disposals += 1;
          },
        };
      };

      const play = (c: Connection, turn: Turn): void => {
        const { threadId } = c;
        const push = (frame: Frame) => {
          c.fake.push(frame);
        };
        push({
          method: 'turn/started',
          params: { threadId, turn: turnObject(turn.id, 'inProgress') },
        });
        const itemId = nextId('item-native-');
        const delta = (text: string) => {
          push(agentDelta(threadId, turn.id, itemId, text));
        };
        const complete = (status: string, error: unknown = null) => {
          turn.done = true;
          push(turnCompleted(threadId, turn.id, status, error));
        };
        switch (turn.scenario) {
          case 'complete':
            if (options.toolActivity === 'redacted') {
              const toolId = nextId('item-native-');
              push({
                method: 'item/started',
                params: { threadId, turnId: turn.id, item: commandItem(toolId, 'inProgress') },
              });
              push({
                method: 'item/completed',
                params: { threadId, turnId: turn.id, item: commandItem(toolId, 'completed') },
              });
            }
            delta('Hello ');
            delta('world');
            push(tokenUsage(threadId, turn.id));
            complete('completed');
            return;
          case 'fail': {
            const error = {
              message: `upstream failure ${SECRET} in ${WORKSPACE}`,
              codexErrorInfo: 'other',
              additionalDetails: SECRET,
              misalignment: null,
            };
            push({
              method: 'error',
              params: { error, willRetry: false, threadId, turnId: turn.id },
            });
            complete('failed', error);
            return;
          }
          case 'hang':
            delta('working');
            return;
          case 'approval':
          case 'question': {
            const id = c.nextServerRequestId;
            c.nextServerRequestId += 1;
            c.serverRequests.set(id, turn);
            push(
              turn.scenario === 'approval'
                ? approvalRequest(id, threadId, turn.id, itemId)
                : questionRequest(
                    id,
                    threadId,
                    turn.id,
                    itemId,
                    nextId('qid-native-'),
                    nextId('qid-native-'),
                  ),
            );
            return;
          }
        }
      };

      const pumpConnection = (c: Connection): void => {
        const batch = c.fake.sent.slice(c.seen);
        c.seen = c.fake.sent.length;
        // An interrupt in the same batch wins over continuing a turn after a reply.
        const interrupting = new Set(
          batch
            .filter((f) => f.method === 'turn/interrupt')
            .map((f) => (f.params as Frame | undefined)?.['turnId']),
        );
        for (const frame of batch) {
          const method = frame.method;
          if (typeof method === 'string' && Object.hasOwn(frame, 'id')) {
            const reply = (result: unknown) => {
              c.fake.push({ id: frame.id, result });
            };
            if (method === 'initialize')
              reply({
                userAgent: USER_AGENT,
                codexHome: '/home/conformance/.codex',
                platformFamily: 'unix',
                platformOs: 'linux',
              });
            else if (method === 'thread/start' || method === 'thread/fork')
              // 0.171.0 answers the thread's model and effort: what per-run options go back to
              reply({
                thread: { id: c.threadId, ephemeral: method === 'thread/start' },
                model: 'scripted-model',
                reasoningEffort: 'medium',
              });
            else if (method === 'config/read') reply({ config: { model_reasoning_summary: null } });
            else if (method === 'turn/start') {
              const turn: Turn = {
                id: nextId('turn-native-'),
                scenario: queue.shift() ?? 'complete',
                done: false,
              };
              c.turns.set(turn.id, turn);
              c.history.add(turn.id);
              effects.runs += 1;
              reply({ turn: turnObject(turn.id, 'inProgress') });
              play(c, turn);
            } else if (method === 'turn/steer') {
              // the reply shape of 0.171.0: the active turn's id
              const turnId = String((frame.params as Frame | undefined)?.['expectedTurnId']);
              const turn = c.turns.get(turnId);
              if (turn !== undefined && !turn.done) reply({ turnId });
              else
                c.fake.push({
                  id: frame.id,
                  error: { code: -32600, message: 'no active turn to steer' },
                });
            } else if (method === 'thread/inject_items') {
              // 0.171.0 answers `{}` (the inject_items transcript)
              reply({});
            } else if (method.startsWith('thread/') && method !== 'thread/resume') {
              const answer = c.history.answer(method, frame.params as Frame | undefined);
              if (answer !== undefined) c.fake.push({ id: frame.id, ...answer });
            } else if (method === 'turn/interrupt') {
              effects.interrupts += 1;
              reply({});
              const turn = c.turns.get(String((frame.params as Frame | undefined)?.['turnId']));
              if (turn !== undefined && !turn.done) {
                turn.done = true;
                c.fake.push(turnCompleted(c.threadId, turn.id, 'interrupted'));
              }
            }
          } else if (
            method === undefined &&
            typeof frame.id === 'number' &&
            Object.hasOwn(frame, 'result')
          ) {
            const turn = c.serverRequests.get(frame.id);
            if (turn === undefined) continue;
            c.serverRequests.delete(frame.id);
            effects.responses += 1;
            c.fake.push({
              method: 'serverRequest/resolved',
              params: { threadId: c.threadId, requestId: frame.id },
            });
            if (turn.done || interrupting.has(turn.id)) continue;
            c.fake.push(agentDelta(c.threadId, turn.id, nextId('item-native-'), 'Ran it.'));
            c.fake.push(tokenUsage(c.threadId, turn.id));
            turn.done = true;
            c.fake.push(turnCompleted(c.threadId, turn.id, 'completed'));
          }
        }
      };

      return {
        provider: createCodexProvider({
          transport,
          approvals: 'bridge',
          questions: 'bridge',
          ...options,
        }),
        sessionInit: () => ({ options: {}, workspace: { root: WORKSPACE, ownership: 'borrowed' } }),
        driver: {
          script(scenario) {
            queue.push(scenario);
            return undefined;
          },
          pump() {
            for (const c of connections) {
              try {
                pumpConnection(c);
              } catch {
                // a closed fake refuses pushes; the adapter no longer listens anyway
              }
            }
          },
          effects: (): NativeEffects => ({ ...effects }),
          failNextDispose() {
            failNextClose = true;
          },
          verify() {
            return connections.flatMap((c) => c.fake.violations)[0];
          },
        },
      };
    },
  };
}
