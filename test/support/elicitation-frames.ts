/** Neutral shapes the permission and MCP elicitation tests share (ADR-0040). */
import type { InteractionResponse } from '@relvo-labs/agent-provider';

/** The approval a request for write access to `<workspace>/granted` raises. */
export const GRANTED_DIR_APPROVAL = {
  kind: 'approval',
  subject: {
    category: 'file_write',
    summary: 'Codex requests more sandbox permissions: write granted',
    detail: {
      paths: [{ path: 'granted', access: 'write' }],
      network: false,
      scopes: { once: 'turn', session: 'session' },
      reason: 'need to write the report',
    },
  },
  allowedModes: ['once', 'session'],
  riskHint: 'medium',
} as const;

/**
 * Answers to the elicit server's form (age, agree, color, name): 36, Yes, skipped, Ada — the
 * server receives `{ age: 36, agree: true, name: 'Ada' }`.
 */
export const ADA_FORM_ANSWERS: InteractionResponse = {
  kind: 'question_set',
  answers: {
    q1: { type: 'text', text: '36' },
    q2: { type: 'selection', values: ['o1'] },
    q3: { type: 'selection', values: ['skip'] },
    q4: { type: 'text', text: 'Ada' },
  },
};

/** An MCP tool-call approval as 0.153.4–0.166.0 send it: its `_meta` names no tool. */
export const UNNAMED_TOOL_APPROVAL = {
  _meta: {
    codex_approval_kind: 'mcp_tool_call',
    persist: ['session', 'always'],
    tool_description: 'Returns pong',
    tool_params: {},
  },
  message: 'Allow the elicit MCP server to run tool "plain"?',
};
