/**
 * The interaction bridges as one session drives them: the registry, given the owner check and
 * a diagnostic channel by the session. Absent when no bridge is enabled.
 */
import type { InteractionResponse, ProviderEventInput } from '@relvo-labs/agent-provider';
import type { InteractionCorrelation } from '../interactions/native-approval.js';
import type { BridgeContext } from '../interactions/bridges.js';
import type { HostToolSet } from '../interactions/host-tools.js';
import type {
  FileChangeBridgeOptions,
  OutsideWorkspaceChangeMode,
} from '../interactions/native-file-change.js';
import {
  InteractionRegistry,
  type OwnerResolution,
  type SessionRetirementCause,
} from '../interactions/registry.js';
import type { CodexRequestId } from '../protocol/wire.js';
import type { ServerRequestOffer } from '../rpc/client.js';
import { fromRegistry } from './diagnostics.js';
import type { CodexRun } from './run.js';

/** What the session drives. */
export interface SessionInteractions {
  /** A server request; false hands it back unhandled (the client declines it with -32601). */
  offer(offer: ServerRequestOffer): boolean;
  respond(providerRef: string, response: InteractionResponse): Promise<void>;
  /** `serverRequest/resolved` for this session's thread. */
  resolved(requestId: CodexRequestId): void;
  /** Whether an approval or question of the run still waits for a person. */
  waitingOn(run: CodexRun): boolean;
  /** Retire every entry the run owns (its completion, or interrupt initiation). */
  retireRun(run: CodexRun): void;
  /** Retire everything (disposal, stream end). */
  retireAll(cause: SessionRetirementCause): void;
}

export interface SessionBridges {
  readonly approvals: boolean;
  readonly questions: boolean;
  readonly fileChanges?: boolean;
  /** A patch leaving the workspace: refused (default) or raised, marked (ADR-0015). */
  readonly outsideWorkspaceChanges?: OutsideWorkspaceChangeMode;
  /** `item/permissions/requestApproval` as approvals (ADR-0040). */
  readonly permissions?: boolean;
  /** `mcpServer/elicitation/request` as approvals and question sets (ADR-0040). */
  readonly elicitations?: boolean;
  /** A URL elicitation shows its address only when true (ADR-0040). */
  readonly showElicitationUrls?: boolean;
  /** `item/tool/call` for these host tools as `tool_call` interactions. */
  readonly hostTools?: HostToolSet;
}

export interface SessionInteractionsParams {
  readonly bridges: SessionBridges;
  /** Required by the file-change bridge: announced patches and the workspace root. */
  readonly fileChanges?: FileChangeBridgeOptions;
  /** Where permission paths and MCP text are shown relative to. */
  readonly workspaceRoot: string;
  /** The MCP tool call a tool-call approval is about, when codex does not name it. */
  readonly mcpCallInFlight?: BridgeContext['mcpCallInFlight'];
  readonly threadId: string;
  readonly resolveOwner: (correlation: InteractionCorrelation) => OwnerResolution<CodexRun>;
  /** The session's diagnostic channel. */
  readonly emit: (event: ProviderEventInput) => void;
}

export function openSessionInteractions(
  params: SessionInteractionsParams,
): SessionInteractions | undefined {
  const { bridges, threadId } = params;
  const any =
    bridges.approvals ||
    bridges.questions ||
    bridges.fileChanges === true ||
    bridges.permissions === true ||
    bridges.elicitations === true ||
    bridges.hostTools !== undefined;
  if (!any) return undefined;
  const registry = new InteractionRegistry<CodexRun>({
    bridges,
    ...(params.fileChanges === undefined ? {} : { fileChanges: params.fileChanges }),
    workspaceRoot: params.workspaceRoot,
    showElicitationUrls: bridges.showElicitationUrls === true,
    ...(bridges.hostTools !== undefined ? { hostTools: bridges.hostTools } : {}),
    ...(params.mcpCallInFlight !== undefined ? { mcpCallInFlight: params.mcpCallInFlight } : {}),
    resolveOwner: params.resolveOwner,
    onDiagnostic: (d) => {
      params.emit(fromRegistry(d));
    },
  });
  return {
    offer: (offer) => registry.handleServerRequest(offer),
    respond: (ref, response) => registry.respond(ref, response),
    resolved: (requestId) => {
      registry.withdraw(requestId, threadId);
    },
    waitingOn: (run) => registry.hasUnanswered(run),
    retireRun: (run) => {
      registry.retireRun(run);
    },
    retireAll: (cause) => {
      registry.retireAll(cause);
    },
  };
}
