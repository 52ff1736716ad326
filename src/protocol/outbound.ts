/**
 * The outbound map, beside the inbound union (`inbound.ts`): every request the adapter sends
 * codex, with the params it sends and the reply it reads. Written against the generated schema
 * of 0.171.0 (fixtures/codex-app-server/0.171.0/json: v1/Initialize*, v2/*Params,
 * v2/*Response) and the recorded replies (fixtures/transcripts); where they disagree the
 * recordings win. Params are typed to what the adapter sends (a type, not checked at run time:
 * the adapter builds them). Replies are loose: codex sends members its schema does not promise,
 * and only what the adapter reads is constrained (`src/rpc/requests.ts` checks each reply).
 */
import { z } from 'zod';
import { turnsListResultSchema } from './thread-wire.js';
import { CODEX_CLIENT_METHOD as M, CODEX_SANDBOX_MODES } from './wire-names.js';
import {
  accountReadResultSchema,
  configReadResultSchema,
  initializeResultSchema,
  modelListResultSchema,
  rateLimitsCarrierSchema,
  threadStartResultSchema,
  turnStartResultSchema,
} from './wire.js';

const jsonObject = z.record(z.string(), z.unknown()).readonly();
/** A `UserInput` (text, image, localImage, skill, mention): built by native-input.ts. */
const userInput = z.array(z.looseObject({ type: z.string() }).readonly()).readonly();
/** A reply whose generated schema is the empty object (measured: `{}`). */
const emptyReply = z.looseObject({});

/** The thread settings `thread/start`, `thread/resume` and `thread/fork` share. */
const threadSettings = {
  cwd: z.string(),
  approvalPolicy: z.enum(['never', 'on-request', 'untrusted']),
  sandbox: z.enum(CODEX_SANDBOX_MODES),
  model: z.string().optional(),
  config: jsonObject.optional(),
  ephemeral: z.boolean().optional(),
};

/** `thread/resume` and `thread/fork` never carry the history in their reply. */
const continued = { threadId: z.string(), ...threadSettings, excludeTurns: z.literal(true) };

/** `account/login/start`: the two kinds the adapter asks for; a ChatGPT address is bounded. */
const loginStartReplySchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('apiKey') }),
  z.looseObject({
    type: z.literal('chatgpt'),
    loginId: z.string().min(1).max(200),
    authUrl: z.url({ protocol: /^https$/ }).max(8192),
  }),
]);

export const OUTBOUND = {
  [M.initialize]: {
    params: z.object({
      clientInfo: z.object({ name: z.string(), title: z.string(), version: z.string() }),
      // the experimental API only on the host's opt-in; null otherwise (recorded)
      capabilities: z.object({ experimentalApi: z.literal(true) }).nullable(),
    }),
    result: initializeResultSchema,
  },
  [M.threadStart]: {
    // `dynamicTools` is experimental: absent from the stable schema, recorded on 0.171.0
    params: z.object({
      ...threadSettings,
      dynamicTools: z.array(jsonObject).readonly().optional(),
    }),
    result: threadStartResultSchema,
  },
  [M.threadResume]: { params: z.object(continued), result: threadStartResultSchema },
  [M.threadFork]: {
    params: z.object({ ...continued, lastTurnId: z.string().optional() }),
    result: threadStartResultSchema,
  },
  [M.configRead]: { params: z.object({ cwd: z.string() }), result: configReadResultSchema },
  [M.turnStart]: {
    params: z.object({
      threadId: z.string(),
      input: userInput,
      outputSchema: jsonObject.optional(),
      model: z.string().optional(),
      effort: z.string().optional(),
      summary: z.string().optional(),
    }),
    result: turnStartResultSchema,
  },
  [M.turnInterrupt]: {
    params: z.object({ threadId: z.string(), turnId: z.string() }),
    result: emptyReply,
  },
  [M.turnSteer]: {
    params: z.object({ threadId: z.string(), expectedTurnId: z.string(), input: userInput }),
    // required by the schema and present in every recorded reply
    result: z.looseObject({ turnId: z.string() }),
  },
  [M.threadInjectItems]: {
    params: z.object({ threadId: z.string(), items: z.array(jsonObject).readonly() }),
    result: emptyReply,
  },
  [M.threadTurnsList]: {
    params: z.object({
      threadId: z.string(),
      limit: z.number().int().positive(),
      sortDirection: z.enum(['asc', 'desc']),
      itemsView: z.enum(['notLoaded', 'summary', 'full']),
      cursor: z.string().optional(),
    }),
    result: turnsListResultSchema,
  },
  [M.threadRevert]: {
    params: z.object({ threadId: z.string(), beforeTurnId: z.string() }),
    // the thread, its turns always empty: nothing the adapter reads
    result: z.looseObject({ thread: z.looseObject({}) }),
  },
  [M.accountRead]: {
    // never a refresh: reading the state must not change it
    params: z.object({ refreshToken: z.literal(false) }),
    result: accountReadResultSchema,
  },
  [M.accountRateLimitsRead]: { params: z.null(), result: rateLimitsCarrierSchema },
  [M.modelList]: {
    params: z.object({
      includeHidden: z.literal(true).optional(),
      limit: z.number().int().positive().optional(),
      cursor: z.string().optional(),
    }),
    result: modelListResultSchema,
  },
  [M.accountLoginStart]: {
    params: z.discriminatedUnion('type', [
      z.object({ type: z.literal('apiKey'), apiKey: z.string() }),
      z.object({ type: z.literal('chatgpt') }),
    ]),
    result: loginStartReplySchema,
  },
  [M.accountLoginCancel]: {
    params: z.object({ loginId: z.string() }),
    // `canceled` or `notFound` in the schema; a newer status is not an error
    result: z.looseObject({ status: z.string() }),
  },
  [M.accountLogout]: { params: z.undefined(), result: emptyReply },
} as const satisfies Record<string, { readonly params: z.ZodType; readonly result: z.ZodType }>;

/** A request method codex accepts from the adapter. */
export type OutboundMethod = keyof typeof OUTBOUND;
/** What the adapter sends with `method`. */
export type OutboundParams<Method extends OutboundMethod> = z.input<
  (typeof OUTBOUND)[Method]['params']
>;
/** `method`'s reply, checked. */
export type OutboundResult<Method extends OutboundMethod> = z.output<
  (typeof OUTBOUND)[Method]['result']
>;
