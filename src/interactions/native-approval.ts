/**
 * Strict parsing of `item/commandExecution/requestApproval` params as the reviewed releases send
 * them (first measured on 0.156.1), and their translation into one neutral approval request (docs/behaviour.md §9.5,
 * ADR-0003). Every refusal is a bounded token; no command, cwd or reason text ever leaves this
 * module except inside the neutral subject, which is the deliberate exception.
 */
import { z } from 'zod';
import {
  approvalRequestSchema,
  canonicalJson,
  type ApprovalMode,
  type ApprovalRequest,
  type ApprovalResponse,
  type JsonObject,
} from '@relvo-labs/agent-provider';
import { redactAddressesIn } from '../shared/url-redaction.js';
import type { BridgeRefusal } from './bridged.js';

/** docs/behaviour.md §9.5: why a command approval was refused (answered -32602). */
// prettier-ignore
export type ApprovalRefusalToken =
  | BridgeRefusal
  | 'kind_unsupported' | 'environment_unsupported' | 'no_reviewable_command'
  | 'policy_amendment_proposed' | 'no_approvable_decision'
  // file-change approvals (ADR-0015)
  | 'no_reviewable_subject' | 'grant_root_requested' | 'outside_workspace_change'
  // permission requests and MCP elicitations (ADR-0040)
  | 'permission_unsupported' | 'no_requested_permission' | 'not_turn_scoped' | 'mode_unsupported';

export const MAX_APPROVAL_DETAIL_CHARS = 16_000;
export const MAX_APPROVAL_SUMMARY_CHARS = 2000;
/** How much of a long command's end its summary quotes: where `| sh` hides. */
const LONG_COMMAND_TAIL_CHARS = 400;
/** The only execution environment the session runs in; anything else is remote to us. */
export const LOCAL_ENVIRONMENT_ID = 'local';

const nonEmpty = z.string().min(1);

const commandActionSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('read'),
    command: z.string(),
    name: z.string(),
    path: z.string(),
  }),
  z.strictObject({ type: z.literal('listFiles'), command: z.string(), path: z.string().nullish() }),
  z.strictObject({
    type: z.literal('search'),
    command: z.string(),
    query: z.string().nullish(),
    path: z.string().nullish(),
  }),
  z.strictObject({ type: z.literal('unknown'), command: z.string() }),
]);
type CommandAction = z.infer<typeof commandActionSchema>;

const networkPolicyAmendmentSchema = z.strictObject({
  action: z.enum(['allow', 'deny']),
  host: z.string(),
});

/** One entry of `availableDecisions`: a plain decision string or a one-key tagged object. */
const approvalDecisionSchema = z.union([
  z.enum(['accept', 'acceptForSession', 'decline', 'cancel']),
  z.strictObject({
    acceptWithExecpolicyAmendment: z.strictObject({ execpolicy_amendment: z.array(z.string()) }),
  }),
  z.strictObject({
    applyNetworkPolicyAmendment: z.strictObject({
      network_policy_amendment: networkPolicyAmendmentSchema,
    }),
  }),
]);

export const nativeCommandApprovalParamsSchema = z.strictObject({
  // Read as a string so that an unknown kind is `kind_unsupported`, not `malformed`.
  kind: z.string().default('command'),
  threadId: nonEmpty,
  turnId: nonEmpty,
  itemId: z.string(),
  startedAtMs: z.int(),
  approvalId: z.string().nullish(),
  environmentId: z.string().nullish(),
  command: z.string().nullish(),
  cwd: z.string().nullish(),
  reason: z.string().nullish(),
  commandActions: z.array(commandActionSchema).nullish(),
  proposedExecpolicyAmendment: z.array(z.string()).nullish(),
  proposedNetworkPolicyAmendments: z.array(networkPolicyAmendmentSchema).nullish(),
  networkApprovalContext: z
    .strictObject({
      host: z.string(),
      protocol: z.enum(['http', 'https', 'socks5Tcp', 'socks5Udp']),
    })
    .nullish(),
  // Experimental in the stable schema, yet sent by 0.156.1 with capabilities null (ADR-0003).
  availableDecisions: z.array(approvalDecisionSchema).nullish(),
});
export type NativeCommandApprovalParams = z.infer<typeof nativeCommandApprovalParamsSchema>;

export interface InteractionCorrelation {
  readonly threadId: string;
  readonly turnId: string;
}

/** What translating a native approval request gives: the neutral request, or a refusal token. */
export type ApprovalTranslation =
  | {
      readonly ok: true;
      readonly request: ApprovalRequest;
      readonly correlation: InteractionCorrelation;
    }
  | { readonly ok: false; readonly token: ApprovalRefusalToken };

/** The three native answers this adapter ever writes. `cancel` is never sent: it interrupts the turn. */
export const NATIVE_APPROVAL_DECISIONS = ['accept', 'acceptForSession', 'decline'] as const;
export type NativeApprovalDecision = (typeof NATIVE_APPROVAL_DECISIONS)[number];

export function refuseApproval(token: ApprovalRefusalToken): ApprovalTranslation {
  return { ok: false, token };
}

/**
 * Display fields only, copied into fresh objects so later mutation of the source cannot leak;
 * credentials in addresses redacted (the subject is shown and stored).
 */
function rebuildAction(action: CommandAction): JsonObject {
  const command = redactAddressesIn(action.command);
  switch (action.type) {
    case 'read':
      return { type: 'read', command, name: action.name, path: action.path };
    case 'listFiles':
      return typeof action.path === 'string'
        ? { type: 'listFiles', command, path: action.path }
        : { type: 'listFiles', command };
    case 'search': {
      const out: JsonObject = { type: 'search', command };
      if (typeof action.query === 'string') out.query = redactAddressesIn(action.query);
      if (typeof action.path === 'string') out.path = action.path;
      return out;
    }
    case 'unknown':
      return { type: 'unknown', command };
  }
}

/**
 * Which neutral modes the server will take for this request. Without a list, both plain accepts
 * are assumed (the stable schema's contract). With a list, `once` needs `accept`, and `session`
 * needs `acceptForSession` or `accept`; a denial (`decline`) is always sendable and was measured
 * to be honoured even when unlisted.
 */
function offeredModes(
  decisions: NativeCommandApprovalParams['availableDecisions'],
): ApprovalMode[] {
  if (decisions === null || decisions === undefined) return ['once', 'session'];
  const modes: ApprovalMode[] = [];
  if (decisions.includes('accept')) modes.push('once');
  // Unlisted by every reviewed release, yet honoured by each: their reviews run the end-to-end
  // session-grant test, and only passing releases are allowlisted (ADR-0003, amendment).
  if (decisions.includes('acceptForSession') || decisions.includes('accept')) modes.push('session');
  return modes;
}

function offersNetworkAmendment(
  decisions: NativeCommandApprovalParams['availableDecisions'],
): boolean {
  return (decisions ?? []).some((d) => typeof d === 'object' && 'applyNetworkPolicyAmendment' in d);
}

/** The whole command when it fits; otherwise its length and its end. The detail has all of it. */
function summaryFor(command: string): string {
  const inline = `Codex requests approval to run: ${command}`;
  if (inline.length <= MAX_APPROVAL_SUMMARY_CHARS) return inline;
  let start = command.length - LONG_COMMAND_TAIL_CHARS;
  // never start on the second half of a surrogate pair
  const code = command.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start += 1;
  return `Codex requests approval to run a command of ${command.length} characters (the whole of it is in the detail), ending: …${command.slice(start)}`;
}

export function translateCommandApproval(params: unknown): ApprovalTranslation {
  const parsed = nativeCommandApprovalParamsSchema.safeParse(params);
  if (!parsed.success) return refuseApproval('malformed');
  const p = parsed.data;

  if (p.kind !== 'command') return refuseApproval('kind_unsupported');
  if (
    p.environmentId !== null &&
    p.environmentId !== undefined &&
    p.environmentId !== LOCAL_ENVIRONMENT_ID
  ) {
    return refuseApproval('environment_unsupported');
  }
  // A network-policy question cannot be answered by a neutral approve/deny. A proposed execpolicy
  // amendment is deliberately not here: it is an extra option we simply never choose.
  if (
    (p.proposedNetworkPolicyAmendments?.length ?? 0) > 0 ||
    (p.networkApprovalContext !== null && p.networkApprovalContext !== undefined) ||
    offersNetworkAmendment(p.availableDecisions)
  ) {
    return refuseApproval('policy_amendment_proposed');
  }
  if (typeof p.command !== 'string' || p.command.trim().length === 0)
    return refuseApproval('no_reviewable_command');
  const command = redactAddressesIn(p.command);

  const allowedModes = offeredModes(p.availableDecisions);
  if (allowedModes.length === 0) return refuseApproval('no_approvable_decision');

  const detail: JsonObject = { command };
  if (typeof p.cwd === 'string') detail.cwd = p.cwd;
  if (typeof p.reason === 'string') detail.reason = redactAddressesIn(p.reason);
  if (p.commandActions && p.commandActions.length > 0)
    detail.commandActions = p.commandActions.map(rebuildAction);
  if (canonicalJson(detail).length > MAX_APPROVAL_DETAIL_CHARS)
    return refuseApproval('detail_too_large');

  const request = approvalRequestSchema.safeParse({
    kind: 'approval',
    subject: { category: 'command', summary: summaryFor(command), detail },
    allowedModes,
    riskHint: 'high',
  });
  // Unreachable with the bounds above; kept as a backstop so no invalid request is ever raised.
  if (!request.success) return refuseApproval('malformed');
  return {
    ok: true,
    request: request.data,
    correlation: { threadId: p.threadId, turnId: p.turnId },
  };
}

/** once → accept, session → acceptForSession, denied → decline. Never cancel. */
export function nativeApprovalDecision(
  response: ApprovalResponse,
): NativeApprovalDecision | undefined {
  if (response.decision === 'denied') return 'decline';
  if (response.mode === 'once') return 'accept';
  if (response.mode === 'session') return 'acceptForSession';
  return undefined;
}
