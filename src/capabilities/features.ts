/**
 * The optional features a host can ask for, and what each needs of the connected release's
 * protocol (ADR-0042). The review derives, per release, whether its generated JSON Schema
 * declares every need (`fixtures/compat/<version>.json` → `capabilities`); `releases.ts` is
 * generated from those reports and the session gate (`gate.ts`) reads it.
 *
 * A need is one of:
 * - `M`: the method M is in the release's client requests, server requests or notifications;
 * - `M.f`: M's params (any variant) declare the property f;
 * - `M.f=v`: a variant of M's params declares f with v among its values (enum or const);
 * - `M:result.f`: M's result declares f (only for a method whose params name its result).
 */
import { z } from 'zod';
import type { InboundMethod } from '../protocol/inbound.js';
import {
  CODEX_BRIDGED_ELICITATION,
  CODEX_BRIDGED_PERMISSIONS,
  CODEX_BRIDGED_TOOL_CALL,
  CODEX_CLIENT_METHOD,
} from '../protocol/wire-names.js';

// a notification the adapter does not decode would fail to compile here
const PLAN = 'turn/plan/updated' satisfies InboundMethod;
const DIFF = 'turn/diff/updated' satisfies InboundMethod;
const SUMMARY = 'item/reasoning/summaryTextDelta' satisfies InboundMethod;
const LIMITS = 'account/rateLimits/updated' satisfies InboundMethod;
const PERMS = CODEX_BRIDGED_PERMISSIONS;
const ELICIT = CODEX_BRIDGED_ELICITATION;
const STEER = CODEX_CLIENT_METHOD.turnSteer;
const MODELS = CODEX_CLIENT_METHOD.modelList;
const ACCOUNT = CODEX_CLIENT_METHOD.accountRead;
const TOOL = CODEX_BRIDGED_TOOL_CALL;
const INJECT = CODEX_CLIENT_METHOD.threadInjectItems;
const REVERT = CODEX_CLIENT_METHOD.threadRevert;
const TURNS = CODEX_CLIENT_METHOD.threadTurnsList;

/**
 * Feature → its needs: the methods the feature sends, reads or answers and the fields the
 * adapter requires of them (those its own parsers do not treat as optional). The feature names
 * are the option or call a host uses, so a refusal names what to turn off.
 */
export const CODEX_FEATURE_NEEDS = {
  'events.plan': [PLAN, `${PLAN}.turnId`, `${PLAN}.plan`],
  'events.diff': [DIFF, `${DIFF}.turnId`, `${DIFF}.diff`],
  'events.reasoningSummary': [
    SUMMARY,
    `${SUMMARY}.itemId`,
    `${SUMMARY}.delta`,
    `${SUMMARY}.summaryIndex`,
  ],
  permissions: [
    PERMS,
    `${PERMS}.permissions`,
    `${PERMS}.cwd`,
    `${PERMS}.startedAtMs`,
    `${PERMS}:result.permissions`,
    `${PERMS}:result.scope`,
  ],
  mcpElicitations: [
    ELICIT,
    `${ELICIT}.serverName`,
    `${ELICIT}.message`,
    `${ELICIT}.mode=form`,
    `${ELICIT}.mode=url`,
    `${ELICIT}:result.action`,
    `${ELICIT}:result._meta`,
  ],
  elicitationUrls: [`${ELICIT}.mode=url`, `${ELICIT}.url`],
  'run.steer': [STEER, `${STEER}.expectedTurnId`, `${STEER}.input`],
  'run.structuredOutput': [`${CODEX_CLIENT_METHOD.turnStart}.outputSchema`],
  listModels: [MODELS, `${MODELS}:result.data`],
  readRateLimits: [CODEX_CLIENT_METHOD.accountRateLimitsRead],
  onRateLimits: [LIMITS, `${LIMITS}.rateLimits`],
  readAccount: [ACCOUNT, `${ACCOUNT}:result.account`, `${ACCOUNT}:result.requiresOpenaiAuth`],
  // the stable half: `thread/start.dynamicTools` is experimental, outside the review's schema
  // (ADR-0064 lists the releases whose experimental schema declares it)
  hostTools: [
    TOOL,
    `${TOOL}.callId`,
    `${TOOL}.tool`,
    `${TOOL}.arguments`,
    `${TOOL}:result.contentItems`,
    `${TOOL}:result.success`,
  ],
  injectContext: [INJECT, `${INJECT}.threadId`, `${INJECT}.items`],
  // the turn to revert before is read newest first from the thread's own list
  'session.revert': [
    REVERT,
    `${REVERT}.beforeTurnId`,
    TURNS,
    `${TURNS}.limit`,
    `${TURNS}.sortDirection=desc`,
    `${TURNS}.itemsView=notLoaded`,
    `${TURNS}:result.data`,
  ],
  // the thread's own config, on every way a session opens a thread
  mcpServers: [
    `${CODEX_CLIENT_METHOD.threadStart}.config`,
    `${CODEX_CLIENT_METHOD.threadResume}.config`,
    `${CODEX_CLIENT_METHOD.threadFork}.config`,
  ],
  // an API-key login and logout, then the account state (readAccount's needs)
  login: [
    `${CODEX_CLIENT_METHOD.accountLoginStart}.type=apiKey`,
    `${CODEX_CLIENT_METHOD.accountLoginStart}.apiKey`,
    CODEX_CLIENT_METHOD.accountLogout,
    ACCOUNT,
    `${ACCOUNT}:result.account`,
    `${ACCOUNT}:result.requiresOpenaiAuth`,
  ],
  // the browser login: its address, its end, its cancel
  chatgptLogin: [
    `${CODEX_CLIENT_METHOD.accountLoginStart}.type=chatgpt`,
    CODEX_CLIENT_METHOD.accountLoginCancel,
    `${CODEX_CLIENT_METHOD.accountLoginCancel}.loginId`,
    // read only as the signal that the login ended: whether it succeeded is read back
    'account/login/completed',
    ACCOUNT,
    `${ACCOUNT}:result.account`,
  ],
  // one page of turns, newest first, each with its summary items
  'session.history': [
    TURNS,
    `${TURNS}.cursor`,
    `${TURNS}.limit`,
    `${TURNS}.sortDirection=desc`,
    `${TURNS}.itemsView=summary`,
    `${TURNS}:result.data`,
    `${TURNS}:result.nextCursor`,
  ],
} as const satisfies Record<string, readonly string[]>;

export type CodexFeature = keyof typeof CODEX_FEATURE_NEEDS;
export const CODEX_FEATURES = Object.keys(CODEX_FEATURE_NEEDS) as readonly CodexFeature[];
export const codexFeatureSchema = z.enum(CODEX_FEATURES as [CodexFeature, ...CodexFeature[]]);

/** One release's derivation: each feature's needs and the ones its schema does not declare. */
export const featureCheckSchema = z.strictObject({
  needs: z.array(z.string()).readonly(),
  missing: z.array(z.string()).readonly(),
});
export const capabilityTableSchema = z.record(codexFeatureSchema, featureCheckSchema);
export type CapabilityTable = z.infer<typeof capabilityTableSchema>;
