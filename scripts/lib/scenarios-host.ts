/**
 * Scenarios of what a host adds to a thread: its own tools (`dynamicTools` on `thread/start`,
 * experimental, so the client opts in at `initialize`; the model's call reaches the client as
 * `item/tool/call`) and context injected between turns (`thread/inject_items`).
 */
import type { HostToolDefinition } from '@relvo-labs/agent-provider';
import { functionCallStep, scriptedUsage, textStep } from '../../src/testing/index.js';
import type { AppServerDriver, Frame } from './app-server-driver.js';
import type { Scenario, ServerRequestAnswer } from './scenario-types.js';

/** The host tool the scenarios and the tests declare, as a session's `tools` entry. */
export const LOOKUP_TICKET = {
  name: 'lookup_ticket',
  description: 'Look up a ticket by id',
  inputSchema: {
    type: 'object',
    properties: { id: { type: 'integer' } },
    required: ['id'],
    additionalProperties: false,
  },
} satisfies HostToolDefinition;

/** The same tool as `thread/start.dynamicTools` carries it. */
const LOOKUP_TICKET_TOOL = { type: 'function', ...LOOKUP_TICKET };

const toolAnswer =
  (text: string, success: boolean) =>
  (request: Frame): ServerRequestAnswer | undefined =>
    request.method === 'item/tool/call'
      ? { result: { contentItems: [{ type: 'inputText', text }], success } }
      : undefined;

async function injectNote(driver: AppServerDriver, threadId: string): Promise<void> {
  const reply = await driver.request(
    'thread/inject_items',
    {
      threadId,
      items: [
        {
          type: 'message',
          role: 'developer',
          content: [{ type: 'input_text', text: 'HOST NOTE: the customer is on the gold plan' }],
        },
      ],
    },
    10_000,
  );
  if (!('result' in reply)) throw new Error('thread/inject_items failed');
}

export const HOST_SCENARIOS: readonly Scenario[] = [
  {
    name: 'host_tool_call',
    summary:
      'experimentalApi; thread/start declares lookup_ticket; the model calls it, the client answers one text, the model answers',
    approvalPolicy: 'on-request',
    sandbox: 'read-only',
    experimentalApi: true,
    threadStart: { dynamicTools: [LOOKUP_TICKET_TOOL] },
    steps: [
      functionCallStep(
        'lookup_ticket',
        { id: 42 },
        {
          callId: 'call_tool_1',
          usage: scriptedUsage(500, 20, 0, 0),
        },
      ),
      textStep(['Ticket 42 ', 'is open.'], { itemId: 'msg_1', responseId: 'resp_2' }),
    ],
    turns: [{ text: 'look up ticket 42', answer: toolAnswer('ticket 42 is open', true) }],
  },
  {
    name: 'host_tool_call_failed',
    summary:
      'experimentalApi; the model calls lookup_ticket with input its schema refuses; codex passes it on, the client answers success:false',
    approvalPolicy: 'on-request',
    sandbox: 'read-only',
    experimentalApi: true,
    threadStart: { dynamicTools: [LOOKUP_TICKET_TOOL] },
    steps: [
      functionCallStep(
        'lookup_ticket',
        { id: 'abc', extra: true },
        {
          callId: 'call_tool_1',
          usage: scriptedUsage(500, 20, 0, 0),
        },
      ),
      textStep(['The lookup ', 'failed.'], { itemId: 'msg_1', responseId: 'resp_2' }),
    ],
    turns: [
      {
        text: 'look up ticket abc',
        answer: toolAnswer('input does not match the tool schema', false),
      },
    ],
  },
  {
    name: 'inject_items',
    summary:
      'a turn, then thread/inject_items (one developer message) between turns, then a turn whose request carries it',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [
      textStep(['first'], { itemId: 'msg_1', responseId: 'resp_1' }),
      textStep(['second'], { itemId: 'msg_2', responseId: 'resp_2' }),
    ],
    turns: [{ text: 'first question' }, { text: 'second question', before: injectNote }],
  },
];
