/**
 * The named scenarios recorded against the real binary. Each is data: thread settings, the
 * scripted model steps (consumed in order, one per model request) and the client's turns.
 * This file holds the types, the plain turn and failure scenarios and the full list; families
 * of scenarios live beside it (`scenarios-events.ts`, `scenarios-interactions.ts`,
 * `scenarios-runs.ts`, `scenarios-tools.ts`); what a scenario is: `scenario-types.ts`.
 */
import {
  functionCallStep,
  httpErrorStep,
  responseFailedStep,
  scriptedUsage,
  textStep,
} from '../../src/testing/index.js';
import { EVENTS_SCENARIOS } from './scenarios-events.js';
import { approvalScenario, PERMISSION_SCENARIOS } from './scenarios-interactions.js';
import { TOOL_AND_PATCH_SCENARIOS } from './scenarios-tools.js';
import type { Scenario } from './scenario-types.js';
import { RUN_SCENARIOS } from './scenarios-runs.js';
import { HOST_SCENARIOS } from './scenarios-host.js';
import { THREAD_SCENARIOS } from './scenarios-thread.js';
import { MCP_SCENARIOS } from './scenarios-mcp.js';

/**
 * `response.failed` error codes: every code codex 0.156.1–0.171.0 was seen to classify
 * (measured), plus one it does not know.
 */
export const RESPONSE_FAILED_CODES = [
  'context_length_exceeded',
  'insufficient_quota',
  'usage_not_included',
  'rate_limit_exceeded',
  'slow_down',
  'server_is_overloaded',
  'invalid_prompt',
  'cyber_policy',
  'bio_policy',
  'model_not_found',
  'flex_unavailable',
  'policy_capacity_unavailable',
  'server_error',
  'some_unknown_code',
] as const;

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'handshake',
    summary: 'initialize, initialized, thread/start; then 1 s of silence before stdin closes',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [],
    turns: [],
    settleMs: 1_000,
  },
  {
    name: 'text_turn',
    summary: 'one streamed text answer with usage',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [
      textStep(['Hello', ' world'], {
        itemId: 'msg_1',
        responseId: 'resp_1',
        usage: scriptedUsage(1200, 30, 200, 5),
      }),
    ],
    turns: [{ text: 'hi' }],
  },
  {
    name: 'two_turns',
    summary: 'two text turns on one thread; usage totals accumulate',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [
      textStep(['First', ' answer'], {
        itemId: 'msg_1',
        responseId: 'resp_1',
        usage: scriptedUsage(1200, 30, 200, 5),
      }),
      textStep(['Second', ' answer'], {
        itemId: 'msg_2',
        responseId: 'resp_2',
        usage: scriptedUsage(1270, 38, 1000, 0),
      }),
    ],
    turns: [{ text: 'hi' }, { text: 'again' }],
  },
  {
    name: 'protocol_errors',
    summary:
      'request before initialize; after the handshake: a malformed line (not recorded: it is not a frame; ' +
      'it was written right before the unknown method), an unknown method, a bad enum, a second initialize, ' +
      'turn/interrupt with no active turn',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [],
    turns: [],
    beforeInitialize: async (d) => {
      await d.request('thread/start', { cwd: '/', ephemeral: true });
    },
    afterThreadStart: async (d, threadId) => {
      d.sendRaw('{"id": 99, "method": \n');
      await d.request('bogus/method', {});
      await d.request('thread/start', { cwd: '/', approvalPolicy: 'bogus', ephemeral: true });
      await d.request('initialize', {
        clientInfo: { name: 'relvo_agent_runtime', version: '0.1.0' },
        capabilities: null,
      });
      await d.request('turn/interrupt', { threadId, turnId: 'no-such-turn' });
    },
  },
  approvalScenario('approval_accept', 'accept', true),
  approvalScenario('approval_decline', 'decline', true),
  approvalScenario('approval_cancel', 'cancel', false),
  {
    name: 'interrupt',
    summary: 'one delta per 200 ms; turn/interrupt after the 5th delta',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [
      textStep(
        Array.from({ length: 30 }, (_, i) => `d${i} `),
        { itemId: 'msg_slow', responseId: 'resp_slow', delayMs: 200 },
      ),
    ],
    turns: [{ text: 'talk slowly', interruptAfterDeltas: 5 }],
  },
  {
    name: 'http_500',
    summary: 'model answers HTTP 500; retries off',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [httpErrorStep(500, { error: { message: 'scripted 500' } })],
    turns: [{ text: 'hi' }],
  },
  {
    name: 'stream_closed',
    summary: 'model drops the connection after one delta; retries off',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [
      textStep(['Hel', 'lo', ' world'], {
        itemId: 'msg_cut',
        responseId: 'resp_cut',
        closeAfterDeltas: 1,
      }),
    ],
    turns: [{ text: 'hi' }],
  },
  {
    name: 'response_failed',
    summary: 'model sends response.failed',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [responseFailedStep('server_error', 'scripted response.failed')],
    turns: [{ text: 'hi' }],
  },
  {
    name: 'request_user_input',
    summary:
      'default-mode request_user_input (feature flag); client refuses with -32602; turn finishes',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    extraConfig: ['features.default_mode_request_user_input=true'],
    steps: [
      functionCallStep(
        'request_user_input',
        {
          questions: [
            {
              id: 'color_choice',
              header: 'Color',
              question: 'Which color?',
              options: [
                { label: 'Red', description: 'Loud.' },
                { label: 'Blue', description: 'Calm.' },
              ],
            },
          ],
        },
        { callId: 'call_rui_1', itemId: 'fc_rui_1', usage: scriptedUsage(500, 20, 0, 0) },
      ),
      textStep(['No answer', ', moving on.'], { itemId: 'msg_after_rui', responseId: 'resp_2' }),
    ],
    turns: [
      {
        text: 'ask me a color',
        answer: (request) =>
          request.method === 'item/tool/requestUserInput'
            ? { error: { code: -32602, message: 'not_blocking' } }
            : undefined,
      },
    ],
  },
  // Upstream failures a host must be able to act on: each recorded on the
  // baseline so the classification is tested on what the binary really sends.
  {
    name: 'http_401',
    summary: 'model answers HTTP 401 (invalid key); retries off',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [
      httpErrorStep(401, {
        error: {
          message: 'scripted bad key',
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      }),
    ],
    turns: [{ text: 'hi' }],
  },
  {
    name: 'http_429',
    summary: 'model answers HTTP 429 with retry-after: 7; retries off',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [
      httpErrorStep(
        429,
        { error: { message: 'scripted rate limit', type: 'rate_limit_exceeded' } },
        { 'retry-after': '7' },
      ),
    ],
    turns: [{ text: 'hi' }],
  },
  {
    name: 'http_errors',
    summary: 'one turn per HTTP failure on one thread: 403, 404, 503, 429 usage_limit_reached',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [
      httpErrorStep(403, { error: { message: 'scripted forbidden' } }),
      httpErrorStep(404, {
        error: { message: 'scripted model not found', code: 'model_not_found' },
      }),
      httpErrorStep(503, { error: { message: 'scripted unavailable' } }),
      httpErrorStep(429, {
        error: {
          type: 'usage_limit_reached',
          message: 'scripted usage limit',
          resets_in_seconds: 120,
        },
      }),
    ],
    turns: [
      { text: 'forbidden' },
      { text: 'not found' },
      { text: 'unavailable' },
      { text: 'usage' },
    ],
  },
  {
    name: 'stream_stall',
    summary: 'model sends one delta then nothing; stream_idle_timeout_ms=1500; retries off',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    extraConfig: ['model_providers.scripted.stream_idle_timeout_ms=1500'],
    steps: [
      textStep(['Hel', 'lo'], {
        itemId: 'msg_stall',
        responseId: 'resp_stall',
        stallAfterDeltas: 1,
      }),
    ],
    turns: [{ text: 'hi' }],
  },
  {
    name: 'response_failed_codes',
    summary:
      'one turn per response.failed error code on one thread (the codes codex recognises, plus an unknown one)',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: RESPONSE_FAILED_CODES.map((code) => responseFailedStep(code, `scripted ${code}`)),
    turns: RESPONSE_FAILED_CODES.map((code) => ({ text: code })),
  },
  ...TOOL_AND_PATCH_SCENARIOS,
  ...EVENTS_SCENARIOS,
  ...PERMISSION_SCENARIOS,
  ...RUN_SCENARIOS,
  ...HOST_SCENARIOS,
  ...THREAD_SCENARIOS,
  ...MCP_SCENARIOS,
];

export function findScenario(name: string): Scenario {
  const scenario = SCENARIOS.find((s) => s.name === name);
  if (scenario === undefined) throw new Error(`unknown scenario ${name}`);
  return scenario;
}
