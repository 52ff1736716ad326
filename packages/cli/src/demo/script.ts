/**
 * What the demo's scripted model says. One turn: the model streams a short text, asks to run
 * one harmless command in the throw-away workspace (an escalated `exec_command`, which under
 * the read-only sandbox makes codex ask for approval), and, once the command ran or was
 * declined, closes with a reply. The closing reply is queued when the person answers, so it
 * can say what happened.
 */
import {
  rawStep,
  scriptedUsage,
  textStep,
  type RawStep,
  type SseEvent,
  type TextStep,
} from '@relvo-labs/agent-provider-codex/demo-model';

export const DEMO_FILE = 'relvo-demo.txt';
export const DEMO_FILE_TEXT = 'hello from codex';
export const DEMO_COMMAND = `echo '${DEMO_FILE_TEXT}' > ${DEMO_FILE} && cat ${DEMO_FILE}`;
export const DEMO_CALL_ID = 'call_relvo_demo';
export const DEMO_PROMPT = 'Show me how approvals work: create a small file in the workspace.';

const OPENING = [
  'Hi! ',
  'I am a scripted model on 127.0.0.1, ',
  'driving the real codex binary. ',
  `I will ask to write ${DEMO_FILE} in the workspace; `,
  'you decide.',
];

/** Milliseconds between streamed deltas, so a person sees the text arrive. */
export const DEMO_DELTA_DELAY_MS = 40;

/** The first response: streamed text, then the command request (one model response). */
export function openingStep(deltaDelayMs = DEMO_DELTA_DELAY_MS): RawStep {
  const messageId = 'msg_relvo_demo_1';
  const text = OPENING.join('');
  const call = {
    type: 'function_call',
    id: 'fc_relvo_demo_1',
    call_id: DEMO_CALL_ID,
    name: 'exec_command',
  };
  const args = JSON.stringify({
    cmd: DEMO_COMMAND,
    sandbox_permissions: 'require_escalated',
    justification: `write ${DEMO_FILE} in the demo workspace`,
  });
  const events: SseEvent[] = [
    { type: 'response.created', response: { id: 'resp_relvo_demo_1' } },
    {
      type: 'response.output_item.added',
      output_index: 0,
      item: {
        type: 'message',
        role: 'assistant',
        id: messageId,
        status: 'in_progress',
        content: [],
      },
    },
    ...OPENING.map((delta) => ({
      type: 'response.output_text.delta',
      item_id: messageId,
      output_index: 0,
      content_index: 0,
      delta,
    })),
    {
      type: 'response.output_item.done',
      output_index: 0,
      item: {
        type: 'message',
        role: 'assistant',
        id: messageId,
        status: 'completed',
        content: [{ type: 'output_text', text, annotations: [] }],
      },
    },
    {
      type: 'response.output_item.added',
      output_index: 1,
      item: { ...call, arguments: '', status: 'in_progress' },
    },
    {
      type: 'response.output_item.done',
      output_index: 1,
      item: { ...call, arguments: args, status: 'completed' },
    },
    {
      type: 'response.completed',
      response: { id: 'resp_relvo_demo_1', usage: scriptedUsage(1180, 64, 0, 12) },
    },
  ];
  const step = rawStep(events, 'end', deltaDelayMs);
  return step;
}

/** The closing reply, chosen by what the person answered. */
export function closingStep(approved: boolean, deltaDelayMs = DEMO_DELTA_DELAY_MS): TextStep {
  const deltas = approved
    ? [
        'Done: ',
        `the command ran and ${DEMO_FILE} `,
        'is in the workspace. ',
        'That was one real codex turn.',
      ]
    : [
        'Understood: ',
        'I did not run the command, ',
        'nothing was written. ',
        'That was one real codex turn.',
      ];
  return textStep(deltas, { delayMs: deltaDelayMs, usage: scriptedUsage(1320, 28, 1024, 0) });
}
