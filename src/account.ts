/**
 * Whether codex is logged in, read from codex itself (`account/read` over the app-server) on a
 * connection of its own: no thread, no turn, nothing sent to a model. What is published is
 * bounded: the kind of account and the plan token, never the email or an id.
 */
import { z } from 'zod';
import { CODEX_CLIENT_METHOD } from './protocol/wire-names.js';
import { accountReadResultSchema } from './protocol/wire.js';
import { askCodex, type CodexProbe } from './probe.js';
import { codexRejection } from './shared/codex-error.js';

export const CODEX_AUTH_MODES = ['apiKey', 'chatgpt', 'amazonBedrock', 'gcp', 'unknown'] as const;

export const codexAccountStatusSchema = z.strictObject({
  /** codex can call its model: it holds a login, or its model provider needs none. */
  loggedIn: z.boolean(),
  /** Whether codex's configured model provider needs an OpenAI login at all. */
  requiresOpenaiAuth: z.boolean(),
  /** The login codex holds (`unknown`: a kind newer than the pinned schema); null: none. */
  authMode: z.enum(CODEX_AUTH_MODES).nullable(),
  /** A ChatGPT login's plan (`plus`, `pro`, …), when codex names one. */
  planType: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,39}$/)
    .optional(),
});
export type CodexAccountStatus = z.infer<typeof codexAccountStatusSchema>;

export interface ReadAccountInit {
  /** The app-server's working directory (its project config applies); default: `process.cwd()`. */
  readonly cwd?: string;
}

const KNOWN_MODES: ReadonlySet<string> = new Set(CODEX_AUTH_MODES);
const planToken = codexAccountStatusSchema.shape.planType;

/** The native answer → the bounded status; anything unreadable is a contract violation. */
export function accountStatusOf(result: unknown): CodexAccountStatus {
  const parsed = accountReadResultSchema.safeParse(result);
  if (!parsed.success) {
    throw codexRejection('provider_contract_violation', 'codex answered account/read unusably', {
      providerCode: 'handshake_invalid',
    });
  }
  const { account, requiresOpenaiAuth } = parsed.data;
  const plan = planToken.safeParse(account?.planType);
  return {
    loggedIn: account !== null || !requiresOpenaiAuth,
    requiresOpenaiAuth,
    authMode:
      account === null ? null : KNOWN_MODES.has(account.type) ? (account.type as never) : 'unknown',
    ...(plan.success && plan.data !== undefined ? { planType: plan.data } : {}),
  };
}

/** initialize → `account/read { refreshToken: false }` → close. */
export function readCodexAccount(probe: CodexProbe): Promise<CodexAccountStatus> {
  // no refresh: reading the state must not change it
  return askCodex(probe, 'readAccount', async (connection) =>
    accountStatusOf(
      await connection.request(CODEX_CLIENT_METHOD.accountRead, { refreshToken: false }),
    ),
  );
}
