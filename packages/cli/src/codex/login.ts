/**
 * Whether codex can call its model, asked of codex itself (`provider.readAccount()`: its own
 * `account/read` over the app-server), and how a person logs in when it cannot.
 */
import {
  createCodexProvider,
  type CodexAccountStatus,
  type CodexProvider,
} from '@relvo-labs/agent-provider-codex';

/** codex's answer, or the bounded token of why it could not be asked. */
export type Checked<T> =
  ({ readonly checked: true } & T) | { readonly checked: false; readonly error: string };

export type LoginCheck = Checked<CodexAccountStatus>;

/** codex's own login commands; the path is the codex this CLI runs, for when none is on PATH. */
export function loginHint(codexPath: string): string {
  return `log in with \`codex login\` (ChatGPT) or \`printenv OPENAI_API_KEY | codex login --with-api-key\`; without codex on PATH: \`${codexPath} login\``;
}

export const NOT_LOGGED_IN = 'codex is not logged in (its model provider needs an OpenAI login)';

/** A bounded `code:providerCode` token for a provider's refusal; never its message. */
export function errorToken(error: unknown): string {
  const inner = (error as { agentError?: { code?: unknown; providerCode?: unknown } } | null)
    ?.agentError;
  const parts = [inner?.code, inner?.providerCode].filter((x) => typeof x === 'string');
  return parts.length > 0 ? parts.join(':') : error instanceof Error ? error.name : 'unknown_error';
}

/** Never throws: a codex that cannot be asked is reported, and the caller decides. */
export async function askChecked<T extends object>(ask: () => Promise<T>): Promise<Checked<T>> {
  try {
    return { checked: true, ...(await ask()) };
  } catch (error) {
    return { checked: false, error: errorToken(error) };
  }
}

export function checkLogin(provider: CodexProvider, cwd: string): Promise<LoginCheck> {
  return askChecked(() => provider.readAccount({ cwd }));
}

/** One line for a person: who codex is logged in as (the kind, never the email). */
export function describeLogin(check: LoginCheck): string {
  if (!check.checked) return `not checked (${check.error})`;
  if (!check.loggedIn) return 'not logged in';
  if (check.authMode === null) return 'no login needed (the model provider needs none)';
  return `logged in (${check.authMode}${check.planType === undefined ? '' : `, ${check.planType}`})`;
}

/** The person's own codex (their CODEX_HOME and config), asked only for its login. */
export function accountProvider(
  executable: string,
  env: NodeJS.ProcessEnv,
  requestTimeoutMs: number,
): CodexProvider {
  return createCodexProvider({
    executable,
    // plugin sync is what reaches the network at start-up; a login check needs none of it
    extraArgs: ['-c', 'features.plugins=false'],
    ...(env === process.env ? {} : { env: definedOnly(env) }),
    requestTimeoutMs,
  });
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}
