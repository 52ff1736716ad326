/**
 * `mcpServer/elicitation/request` → one neutral interaction (ADR-0040). Three requests share the
 * method: codex's own approval of an MCP tool call (form mode, `_meta.codex_approval_kind:
 * "mcp_tool_call"`) → an approval; a server's form → a question set (elicitation-form.ts); a
 * server's URL → an approval whose address is shown only if the host opted in. Everything an
 * MCP server wrote is untrusted: bounded, control characters removed, URLs and paths replaced.
 * Declining is `decline`; a request released unanswered is `cancel`.
 */
import { z } from 'zod';
import {
  approvalRequestSchema,
  type ApprovalResponse,
  type JsonObject,
} from '@relvo-labs/agent-provider';
import { redactAddress, replaceBareAddresses } from '../shared/url-redaction.js';
import { redactToolText, URL_PLACEHOLDER } from '../shared/workspace-redaction.js';
import { bridged, type BridgeTranslation } from './bridged.js';
import { buildFormContent, translateForm } from './elicitation-form.js';
import { MAX_APPROVAL_SUMMARY_CHARS } from './native-approval.js';
import { planApprovalSettlement, planQuestionAnswers } from './settlement.js';

const base = {
  threadId: z.string().min(1),
  turnId: z.string().nullish(),
  serverName: z.string(),
  environmentId: z.string().nullish(),
  message: z.string(),
  _meta: z.unknown().optional(),
};
const formParams = z.strictObject({
  ...base,
  mode: z.literal('form'),
  requestedSchema: z.unknown(),
});
const urlParams = z.strictObject({
  ...base,
  mode: z.literal('url'),
  url: z.string(),
  elicitationId: z.string(),
});
const modeOnly = z.looseObject({ mode: z.string() });

/** codex's approval of a tool call rides on a form elicitation, marked in `_meta`. */
const toolApprovalMeta = z.looseObject({
  codex_approval_kind: z.literal('mcp_tool_call'),
  persist: z.array(z.string()).nullish(),
  tool_name: z.string().nullish(),
  tool_params: z.unknown().optional(),
});
const approvalKindOnly = z.looseObject({ codex_approval_kind: z.unknown() });

export interface ElicitationBridgeOptions {
  readonly workspaceRoot: string;
  /** Whether a URL elicitation shows its address (default: withheld). */
  readonly showUrls: boolean;
  /**
   * The one MCP tool call in flight to a server in a turn (src/session/mcp-calls.ts): the subject
   * of a tool-call approval from a release whose `_meta` names no tool.
   */
  readonly mcpCallInFlight?: (
    turnId: string,
    server: string,
  ) => { readonly tool: string; readonly arguments: unknown } | undefined;
}

const MAX_MESSAGE_CHARS = 2000;
const MAX_NAME_CHARS = 200;
const MAX_ARGUMENTS_CHARS = 16_000;
const MAX_URL_CHARS = 2000;
// C0 and C1 controls other than tab and newline: terminal escapes, carriage returns, bells
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// a whole terminal control sequence (CSI), so its parameters do not stay glued to the text
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CSI = /(?:\u001b\[|\u009b)[0-9;?]*[ -/]*[@-~]/g;

/** Untrusted server text as a person may be shown it. */
export function neutralise(text: string, root: string, max: number): string {
  return redactToolText(withoutControls(text), root, max);
}

function withoutControls(text: string): string {
  // a space, not nothing: a removed escape must not glue its remains to a URL or a path
  return text.replace(CSI, ' ').replace(CONTROLS, ' ');
}

/**
 * A server's message, prose that may point a person anywhere: an address without a scheme
 * (`evil.example/x`) is replaced too. Names and arguments keep their dotted words.
 */
function neutraliseMessage(text: string, root: string): string {
  // controls first, so an escape cannot hide an address's start; a host after `//` or `@` is
  // never taken for a bare one: schemed addresses go whole in `neutralise`
  const bare = replaceBareAddresses(withoutControls(text), URL_PLACEHOLDER);
  return neutralise(bare, root, MAX_MESSAGE_CHARS);
}

export const CANCEL_ELICITATION = { action: 'cancel', content: null } as const;
const DECLINE = { action: 'decline', content: null } as const;

function approvalReply(session: boolean): (r: ApprovalResponse) => JsonObject {
  return (r) => {
    if (r.decision === 'denied') return { ...DECLINE };
    if (r.mode === 'session' && session)
      return { action: 'accept', content: null, _meta: { persist: 'session' } };
    return { action: 'accept', content: null };
  };
}

export function translateElicitation(
  params: unknown,
  options: ElicitationBridgeOptions,
): BridgeTranslation {
  const mode = modeOnly.safeParse(params);
  if (!mode.success) return { ok: false, token: 'malformed' };
  if (mode.data.mode !== 'form' && mode.data.mode !== 'url')
    return { ok: false, token: 'mode_unsupported' };
  const parsed = (mode.data.mode === 'form' ? formParams : urlParams).safeParse(params);
  if (!parsed.success) return { ok: false, token: 'malformed' };
  const p = parsed.data;
  // MCP elicitation is not tied to a turn; codex correlates one when it can
  if (typeof p.turnId !== 'string' || p.turnId.length === 0)
    return { ok: false, token: 'not_turn_scoped' };
  const correlation = { threadId: p.threadId, turnId: p.turnId };
  const root = options.workspaceRoot;
  const server = neutralise(p.serverName, root, MAX_NAME_CHARS);
  if (p.mode === 'url') return translateUrl(p, server, correlation, options);

  if (p._meta !== null && p._meta !== undefined) {
    const tool = toolApprovalMeta.safeParse(p._meta);
    if (tool.success) {
      const call =
        tool.data.tool_name === undefined || tool.data.tool_name === null
          ? options.mcpCallInFlight?.(p.turnId, p.serverName)
          : undefined;
      const meta =
        call === undefined
          ? tool.data
          : {
              ...tool.data,
              tool_name: call.tool,
              tool_params: tool.data.tool_params ?? call.arguments,
            };
      return translateToolApproval(meta, server, correlation, root);
    }
    // another kind of codex approval is one this bridge cannot describe
    if (approvalKindOnly.safeParse(p._meta).success)
      return { ok: false, token: 'mode_unsupported' };
  }
  const intro = `The MCP server "${server}" asks: ${neutraliseMessage(p.message, root)}`;
  const form = translateForm(p.requestedSchema, intro, (text, max) => neutralise(text, root, max));
  if (!form.ok) return form;
  const request = form.request;
  return bridged(
    request,
    correlation,
    (response) =>
      planQuestionAnswers(request, response, (answers) => {
        const built = buildFormContent(form.plan, answers);
        return built.ok
          ? { ok: true, response: { action: 'accept', content: built.response } }
          : built;
      }),
    CANCEL_ELICITATION,
  );
}

function translateToolApproval(
  meta: z.infer<typeof toolApprovalMeta>,
  server: string,
  correlation: { threadId: string; turnId: string },
  root: string,
): BridgeTranslation {
  const tool = neutralise(meta.tool_name ?? '', root, MAX_NAME_CHARS);
  if (tool.length === 0) return { ok: false, token: 'no_reviewable_subject' };
  const detail: JsonObject = { server, tool };
  if (meta.tool_params !== undefined && meta.tool_params !== null) {
    // shown whole or not raised: a cut argument would be approved unread
    const shown = neutralise(JSON.stringify(meta.tool_params), root, Number.MAX_SAFE_INTEGER);
    if (shown.length > MAX_ARGUMENTS_CHARS) return { ok: false, token: 'detail_too_large' };
    detail['arguments'] = shown;
  }
  const session = (meta.persist ?? []).includes('session');
  const summary = `Codex requests approval to call the tool "${tool}" of the MCP server "${server}"`;
  // `always` (remembered across sessions) is never offered: nothing persistent is granted
  return elicitationApproval({ category: 'tool', summary, detail }, correlation, session);
}

/** An approval answered with an elicitation action; `session` adds codex's session persist. */
function elicitationApproval(
  subject: { category: 'tool' | 'other'; summary: string; detail: JsonObject },
  correlation: { threadId: string; turnId: string },
  session: boolean,
): BridgeTranslation {
  const request = approvalRequestSchema.safeParse({
    kind: 'approval',
    subject: { ...subject, summary: subject.summary.slice(0, MAX_APPROVAL_SUMMARY_CHARS) },
    allowedModes: session ? ['once', 'session'] : ['once'],
    riskHint: 'medium',
  });
  if (!request.success) return { ok: false, token: 'malformed' };
  const neutral = request.data;
  return bridged(
    neutral,
    correlation,
    (response) => planApprovalSettlement(neutral, response, approvalReply(session)),
    CANCEL_ELICITATION,
  );
}

/** A web address as it may be shown and stored: credentials in it redacted. */
function webAddress(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
    const shown = redactAddress(parsed.href);
    return shown.length <= MAX_URL_CHARS ? shown : undefined;
  } catch {
    return undefined;
  }
}

function translateUrl(
  p: { message: string; url: string },
  server: string,
  correlation: { threadId: string; turnId: string },
  options: ElicitationBridgeOptions,
): BridgeTranslation {
  // only a web page can be opened; anything else (file:, javascript:) is refused, shown or not
  const url = webAddress(p.url);
  if (url === undefined) return { ok: false, token: 'malformed' };
  const message = neutraliseMessage(p.message, options.workspaceRoot);
  const detail: JsonObject = { server, message };
  if (options.showUrls) detail['url'] = url;
  else detail['urlWithheld'] = true;
  const head = `The MCP server "${server}" asks you to open a web page`;
  const tail = options.showUrls ? `: ${url}` : ' (its address is withheld by the host settings)';
  return elicitationApproval(
    { category: 'other', summary: `${head}${tail}`, detail },
    correlation,
    false,
  );
}
