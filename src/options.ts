import { z } from 'zod';
import {
  CODEX_ADAPTER_VERSION,
  CODEX_DEFAULT_CLIENT_NAME,
  CODEX_DEFAULT_EXECUTABLE,
  CODEX_DEFAULT_REQUEST_TIMEOUT_MS,
  CODEX_DEFAULT_STALL_GRACE_MS,
  CODEX_DEFAULT_STALL_TIMEOUT_MS,
} from './constants.js';
import { codexEventsOptionsSchema } from './events/schemas.js';
import { OUTSIDE_WORKSPACE_CHANGE_MODES } from './interactions/native-file-change.js';
import { CODEX_SANDBOX_MODES } from './protocol/wire-names.js';
import { TOOL_ACTIVITY_MODES } from './session/tool-activity.js';
import { COMMAND_ENVIRONMENTS } from './transport/environment.js';
import type { CodexTransportFactory } from './transport/types.js';
import type { CodexRateLimitsListener } from './rate-limits.js';
import { mcpServersSchema } from './mcp-servers.js';

export const CODEX_BRIDGE_MODES = ['none', 'bridge'] as const;
export const ELICITATION_URL_MODES = ['withhold', 'show'] as const;
export type CodexBridgeMode = (typeof CODEX_BRIDGE_MODES)[number];

export const codexSandboxModeSchema = z.enum(CODEX_SANDBOX_MODES);
export const codexBridgeModeSchema = z.enum(CODEX_BRIDGE_MODES);

const transportFactorySchema = z.custom<CodexTransportFactory>(
  (value) => typeof value === 'function',
  { error: 'transport must be a function ({ cwd }) => CodexTransport' },
);

const rateLimitsListenerSchema = z.custom<CodexRateLimitsListener>(
  (value) => typeof value === 'function',
  { error: 'onRateLimits must be a function (limits) => void' },
);

/** A setTimeout-able duration: a positive integer of milliseconds (NaN, ±Infinity refused). */
export const durationMsSchema = z.number().int().positive().max(2_147_483_647);

/** Host configuration. Never taken from a prompt or from session options. */
export const codexProviderOptionsSchema = z.strictObject({
  /** The codex binary: a path, or a name looked up on `PATH`. */
  executable: z.string().min(1).default(CODEX_DEFAULT_EXECUTABLE),
  /** Arguments placed before `app-server --stdio` (e.g. `-c key=value` overrides). */
  extraArgs: z.array(z.string()).readonly().default([]),
  /**
   * The app-server's environment. It REPLACES the inherited one and is used as given (the
   * transport only adds its owner marker). Omit it to inherit the allowlist of ADR-0013
   * (`CODEX_INHERITED_ENV`) from `process.env`.
   */
  env: z.record(z.string(), z.string()).optional(),
  /** More names to copy from `process.env` when `env` is omitted (extends the allowlist). */
  inheritEnv: z.array(z.string().min(1).max(200)).max(256).readonly().default([]),
  /**
   * What the commands the model runs see: `'filtered'` drops secret-shaped names (`*KEY*`,
   * `*SECRET*`, `*TOKEN*`, …); `'inherit'` is codex's default, everything codex has.
   */
  commandEnvironment: z.enum(COMMAND_ENVIRONMENTS).default('filtered'),
  transport: transportFactorySchema.optional(),
  /** Kill the app-server when the host dies without any handler running (ADR-0010). */
  parentDeathSignal: z.boolean().default(true),
  model: z.string().min(1).max(200).optional(),
  sandboxMode: codexSandboxModeSchema.default('read-only'),
  approvals: codexBridgeModeSchema.default('none'),
  questions: codexBridgeModeSchema.default('none'),
  /** `redacted`: tool items become run.tool_activity under ADR-0014. */
  toolActivity: z.enum(TOOL_ACTIVITY_MODES).default('none'),
  /**
   * Plans, diffs and reasoning summaries as `run.extension` events (ADR-0039); all off by
   * default. `diff: 'summary'` gives paths and line counts, `'patch'` adds the patch text.
   */
  events: codexEventsOptionsSchema.default({ plan: false, diff: 'none', reasoningSummary: false }),
  /** `bridge`: patches become neutral approvals; the thread runs `untrusted` (ADR-0015). */
  fileChanges: codexBridgeModeSchema.default('none'),
  /**
   * A patch that writes outside the workspace: `decline` (default) refuses it without asking;
   * `ask` raises it, marked and showing where it goes (ADR-0015).
   */
  outsideWorkspaceChanges: z.enum(OUTSIDE_WORKSPACE_CHANGE_MODES).default('decline'),
  /**
   * `bridge`: the model may ask for more sandbox access (`request_permissions`, a codex feature
   * under development that this turns on); each request becomes an approval. `none`: the tool is
   * not offered. Either way nothing is granted without a host's approval (ADR-0040).
   */
  permissions: codexBridgeModeSchema.default('none'),
  /**
   * `bridge`: MCP elicitations become interactions — codex's approval of an MCP tool call and a
   * URL as approvals, a server's form as a question set. `none`: every one is declined (ADR-0040).
   */
  mcpElicitations: codexBridgeModeSchema.default('none'),
  /** A URL elicitation's address: `withhold` (default) or `show` it in the approval (ADR-0040). */
  elicitationUrls: z.enum(ELICITATION_URL_MODES).default('withhold'),
  /**
   * Opt into codex's experimental API (`initialize.capabilities.experimentalApi`), which host
   * tools need: `thread/start.dynamicTools` is experimental in every reviewed release. Off, a
   * session declaring tools is refused `capability_unsupported` (ADR-0064).
   */
  experimentalApi: z.boolean().default(false),
  /** `thread`: persisted threads, exportRecoveryRecord and resumeSession (ADR-0016). */
  persistence: z.enum(['ephemeral', 'thread']).default('ephemeral'),
  /** `resolve`: `file_ref` parts are resolved in the workspace and sent as text/localImage (ADR-0017). */
  fileReferences: z.enum(['none', 'resolve']).default('none'),
  clientName: z.string().min(1).max(200).default(CODEX_DEFAULT_CLIENT_NAME),
  clientVersion: z.string().min(1).max(200).default(CODEX_ADAPTER_VERSION),
  /**
   * Releases the host reviewed itself (`npm run review -- <version>` passed) and accepts besides
   * the built-in allowlist. Plain `X.Y.Z` only.
   */
  additionalAppServerVersions: z
    .array(z.string().regex(/^\d+\.\d+\.\d+$/))
    .max(64)
    .readonly()
    .default([]),
  /** Deadline of each JSON-RPC request; turns themselves are unbounded (see stallTimeoutMs). */
  requestTimeoutMs: durationMsSchema.default(CODEX_DEFAULT_REQUEST_TIMEOUT_MS),
  /**
   * Stall watchdog (ADR-0008): a turn that waits this long on codex or the model with no frame
   * (not counting a running command or a person's answer) is interrupted and fails
   * `provider_unavailable` / `turn_stalled`. `null` turns it off.
   */
  stallTimeoutMs: durationMsSchema.nullable().default(CODEX_DEFAULT_STALL_TIMEOUT_MS),
  /** After the stall interrupt, how long to wait for the turn to end before fencing the session. */
  stallGraceMs: durationMsSchema.default(CODEX_DEFAULT_STALL_GRACE_MS),
  /**
   * Hears the account's rate limits whenever a live session of this provider learns them
   * (`account/rateLimits/updated`, during turns); account-wide, so tied to no session or run.
   */
  onRateLimits: rateLimitsListenerSchema.optional(),
  /** MCP servers every session gets, as codex's own config (src/mcp-servers.ts). */
  mcpServers: mcpServersSchema.optional(),
});

export type CodexProviderOptions = z.input<typeof codexProviderOptionsSchema>;
export type ResolvedCodexProviderOptions = z.output<typeof codexProviderOptionsSchema>;

/** `ProviderSessionInit.options`: strict; a session can never set executable, argv, env or transport. */
export const codexSessionOptionsSchema = z.strictObject({
  model: z.string().min(1).max(200).optional(),
  sandboxMode: codexSandboxModeSchema.optional(),
});
export type CodexSessionOptions = z.input<typeof codexSessionOptionsSchema>;
