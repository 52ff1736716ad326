/**
 * Scenarios of what a turn shows of its tools and files: tool activity with canary values the
 * redaction tests look for, file-change approvals, file references, and the resume of a
 * persisted thread recorded with them. Apart from `scenarios.ts` (the full list) so each file
 * holds one family of recordings; the canaries and helpers here are what tests import.
 */
import { execCommandStep, rawStep, scriptedUsage, textStep } from '../../src/testing/index.js';
import type { Frame } from './app-server-driver.js';
import type { Scenario, ServerRequestAnswer } from './scenario-types.js';

// Tool activity and file-change approvals. Canary values let the redaction tests
// prove that command lines, output and paths never leave the adapter unredacted.
export const CANARY_SECRET = 'sk-canaryTOOLSECRET0123456789abcdef';
export const CANARY_OUTPUT = 'CANARY-OUTPUT-7f3a9';
export const PATCH_PATH = 'notes/hello.txt';
/** A 1×1 PNG for the file-reference scenario. */
export const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** What the scripted model sends to propose a patch: this model slug gets no apply_patch tool. */
export function applyPatchCommand(path: string, line: string): string {
  return `apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: ${path}\n+${line}\n*** End Patch\nEOF\n`;
}

const fileChangeDecision =
  (value: string) =>
  (request: Frame): ServerRequestAnswer | undefined =>
    request.method === 'item/fileChange/requestApproval'
      ? { result: { decision: value } }
      : undefined;

const fileChangeScenario = (name: string, value: string): Scenario => ({
  name,
  summary: `untrusted/workspace-write; apply_patch adds ${PATCH_PATH}; client answers ${value}`,
  approvalPolicy: 'untrusted',
  sandbox: 'workspace-write',
  steps: [
    execCommandStep(applyPatchCommand(PATCH_PATH, 'LINE'), {
      callId: 'call_patch_1',
      usage: scriptedUsage(500, 20, 0, 0),
    }),
    textStep(['Patched', '.'], { itemId: 'msg_after_patch', responseId: 'resp_2' }),
  ],
  turns: [{ text: 'write the note', answer: fileChangeDecision(value) }],
});

/** Tool activity, file-change approvals, resumed threads, file references and a patch codex applies unasked. */
export const TOOL_AND_PATCH_SCENARIOS: readonly Scenario[] = [
  {
    name: 'tool_activity',
    summary:
      'never/workspace-write: a command that prints a canary and names a canary secret, a failing command, ' +
      'a patch applied without approval, a web search item, then text',
    approvalPolicy: 'never',
    sandbox: 'workspace-write',
    steps: [
      execCommandStep(`echo ${CANARY_OUTPUT} ${CANARY_SECRET}`, {
        callId: 'call_ok_1',
        usage: scriptedUsage(500, 20, 0, 0),
      }),
      execCommandStep('ls /nonexistent-canary-dir', {
        callId: 'call_fail_1',
        usage: scriptedUsage(520, 20, 0, 0),
      }),
      execCommandStep(applyPatchCommand(PATCH_PATH, 'LINE'), {
        callId: 'call_patch_1',
        usage: scriptedUsage(540, 20, 0, 0),
      }),
      rawStep([
        { type: 'response.created', response: { id: 'resp_ws' } },
        {
          type: 'response.output_item.added',
          output_index: 0,
          item: { type: 'web_search_call', id: 'ws_1', status: 'in_progress' },
        },
        {
          type: 'response.output_item.done',
          output_index: 0,
          item: {
            type: 'web_search_call',
            id: 'ws_1',
            status: 'completed',
            action: { type: 'search', query: `canary query ${CANARY_SECRET}` },
          },
        },
        {
          type: 'response.output_item.added',
          output_index: 1,
          item: {
            type: 'message',
            role: 'assistant',
            id: 'msg_ws',
            status: 'in_progress',
            content: [],
          },
        },
        {
          type: 'response.output_text.delta',
          item_id: 'msg_ws',
          output_index: 1,
          content_index: 0,
          delta: 'Done.',
        },
        {
          type: 'response.output_item.done',
          output_index: 1,
          item: {
            type: 'message',
            role: 'assistant',
            id: 'msg_ws',
            status: 'completed',
            content: [{ type: 'output_text', text: 'Done.', annotations: [] }],
          },
        },
        {
          type: 'response.completed',
          response: { id: 'resp_ws', usage: scriptedUsage(560, 5, 0, 0) },
        },
      ]),
    ],
    turns: [{ text: 'show your tools' }],
  },
  fileChangeScenario('file_change_accept', 'accept'),
  fileChangeScenario('file_change_decline', 'decline'),
  {
    name: 'resume',
    summary:
      'persisted thread: one turn in a first app-server; a second one (same CODEX_HOME) resumes it with excludeTurns and runs a turn',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    ephemeral: false,
    steps: [
      textStep(['Noted', '.'], {
        itemId: 'msg_1',
        responseId: 'resp_1',
        usage: scriptedUsage(900, 5, 0, 0),
      }),
      textStep(['You said ', 'PINEAPPLE-42.'], {
        itemId: 'msg_2',
        responseId: 'resp_2',
        usage: scriptedUsage(950, 6, 0, 0),
      }),
    ],
    turns: [{ text: 'remember PINEAPPLE-42' }],
    resume: { turns: [{ text: 'what did I say?' }] },
  },
  {
    name: 'resume_unknown_thread',
    summary: 'measurement: thread/resume of a thread id that was never created',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    ephemeral: false,
    steps: [],
    turns: [],
    resume: { turns: [], thread: 'unknown' },
  },
  {
    name: 'resume_other_cwd',
    summary: 'measurement: thread/resume of a persisted thread with another cwd',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    ephemeral: false,
    steps: [textStep(['Noted', '.'], { itemId: 'msg_1', responseId: 'resp_1' })],
    turns: [{ text: 'remember' }],
    resume: { turns: [], cwd: 'other' },
  },
  {
    name: 'file_ref',
    summary:
      'file references as the adapter sends them: text naming the workspace-relative paths plus a localImage for the image',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    workspaceFiles: { 'notes/a.txt': 'REFERENCED-CONTENT\n', 'pic.png': ONE_PIXEL_PNG },
    steps: [textStep(['Seen', '.'], { itemId: 'msg_1', responseId: 'resp_1' })],
    turns: [
      {
        text: 'look',
        input: [
          {
            type: 'text',
            text: 'look\n\n[referenced file: notes/a.txt]\n\n[referenced file: pic.png]',
          },
          { type: 'localImage', path: '<workspace>/pic.png' },
        ],
      },
    ],
  },
  {
    name: 'file_change_on_request_workspace_write',
    summary:
      'measurement: on-request/workspace-write; apply_patch adds a file; codex applies it without asking',
    approvalPolicy: 'on-request',
    sandbox: 'workspace-write',
    steps: [
      execCommandStep(applyPatchCommand(PATCH_PATH, 'LINE'), {
        callId: 'call_patch_1',
        usage: scriptedUsage(500, 20, 0, 0),
      }),
      textStep(['Patched', '.'], { itemId: 'msg_after_patch', responseId: 'resp_2' }),
    ],
    turns: [{ text: 'write the note', answer: fileChangeDecision('accept') }],
  },
];

/**
 * The model asks for write access to `<workspace>/granted` (`request_permissions`, a feature under
 * development) and then writes there; the client grants the requested profile for the turn.
 */
