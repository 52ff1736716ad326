/**
 * One server request → its bridge's translation (docs/behaviour.md §9): which native parser reads
 * the method, and how the neutral answer and a release become the one native reply.
 */
import {
  CODEX_BRIDGED_APPROVAL,
  CODEX_BRIDGED_ELICITATION,
  CODEX_BRIDGED_FILE_CHANGE,
  CODEX_BRIDGED_PERMISSIONS,
  CODEX_BRIDGED_TOOL_CALL,
} from '../protocol/wire-names.js';
import type { ServerRequestOffer } from '../rpc/server-requests.js';
import type { ApprovalResponse } from '@relvo-labs/agent-provider';
import { bridged, type BridgeTranslation } from './bridged.js';
import { translateCommandApproval, type ApprovalTranslation } from './native-approval.js';
import { translateElicitation, type ElicitationBridgeOptions } from './native-elicitation.js';
import { translateFileChangeApproval, type FileChangeBridgeOptions } from './native-file-change.js';
import {
  EMPTY_PERMISSION_GRANT,
  nativePermissionsReply,
  translatePermissionsRequest,
} from './native-permissions.js';
import type { HostToolSet } from './host-tools.js';
import { emptyNativeAnswers, translateUserInput } from './native-question.js';
import { translateToolCall } from './native-tool-call.js';
import { planApprovalSettlement, planQuestionSettlement } from './settlement.js';

/** What the bridges need from the session. */
export interface BridgeContext {
  /** With the file-change bridge: the session's announced patches and its workspace root. */
  readonly fileChanges?: FileChangeBridgeOptions;
  /** Where paths are shown relative to (permission requests, MCP text). */
  readonly workspaceRoot?: string;
  /** Whether a URL elicitation shows its address (ADR-0040). */
  readonly showElicitationUrls?: boolean;
  /** The MCP tool call a tool-call approval is about, when codex does not name it. */
  readonly mcpCallInFlight?: ElicitationBridgeOptions['mcpCallInFlight'];
  /** The session's host tools (docs/behaviour.md §9.11). */
  readonly hostTools?: HostToolSet;
}

/**
 * A command or file-change approval: answered with a decision, released with `decline`, and
 * abandoned on dispose with `cancel` (codex ends the turn instead of going on without it).
 */
function decisionApproval(translation: ApprovalTranslation): BridgeTranslation {
  if (!translation.ok) return translation;
  const { request, correlation } = translation;
  return bridged(
    request,
    correlation,
    (r) => planApprovalSettlement(request, r),
    { decision: 'decline' },
    { decision: 'cancel' },
  );
}

export function translateBridged(
  offer: ServerRequestOffer,
  context: BridgeContext,
): BridgeTranslation {
  const root = context.workspaceRoot ?? '';
  switch (offer.method) {
    case CODEX_BRIDGED_APPROVAL:
      return decisionApproval(translateCommandApproval(offer.params));
    case CODEX_BRIDGED_FILE_CHANGE: {
      const f = context.fileChanges;
      if (f === undefined) return { ok: false, token: 'malformed' };
      return decisionApproval(
        translateFileChangeApproval(offer.params, f.lookup, f.workspaceRoot, f.outsideChanges),
      );
    }
    case CODEX_BRIDGED_PERMISSIONS: {
      const { translation, grant } = translatePermissionsRequest(offer.params, root);
      if (!translation.ok || grant === undefined)
        return translation.ok ? { ok: false, token: 'malformed' } : translation;
      const { request, correlation } = translation;
      const reply = (r: ApprovalResponse) => nativePermissionsReply(grant, r);
      return bridged(
        request,
        correlation,
        (response) => planApprovalSettlement(request, response, reply),
        EMPTY_PERMISSION_GRANT,
      );
    }
    case CODEX_BRIDGED_ELICITATION:
      return translateElicitation(offer.params, {
        workspaceRoot: root,
        showUrls: context.showElicitationUrls === true,
        ...(context.mcpCallInFlight !== undefined
          ? { mcpCallInFlight: context.mcpCallInFlight }
          : {}),
      });
    case CODEX_BRIDGED_TOOL_CALL:
      return context.hostTools === undefined
        ? { ok: false, token: 'malformed' }
        : translateToolCall(offer.params, context.hostTools);
    default: {
      const t = translateUserInput(offer.params);
      if (!t.ok) return t;
      const { request, plan, correlation } = t;
      const settle = (response: unknown) => planQuestionSettlement(request, plan, response);
      return bridged(request, correlation, settle, emptyNativeAnswers());
    }
  }
}
