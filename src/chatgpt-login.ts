/**
 * `provider.startChatgptLogin()`: codex's browser login (`account/login/start { type: 'chatgpt' }`).
 * codex answers at once with the address to open and runs the login's local listener (127.0.0.1,
 * port 1455 first) inside the app-server, so the connection stays open until the login ends:
 * codex's `account/login/completed`, the host's `cancel()`, or the deadline (then codex's
 * `account/login/cancel`). Each end closes the connection; `done` settles once and never rejects;
 * a login codex ended is `logged_in` only when `account/read` then reports a ChatGPT login.
 * Measured on 0.171.0 (no network): one login on the host cancels another, across processes, and
 * is reported here as `failed`.
 */
import { z } from 'zod';
import { accountStatusOf, type CodexAccountStatus } from './account.js';
import { ReleaseCapabilities } from './capabilities/gate.js';
import type { CodexProbe } from './probe.js';
import type { InboundNotification } from './protocol/inbound.js';
import { CODEX_CLIENT_METHOD } from './protocol/wire-names.js';
import type { CodexConnection } from './rpc/connection.js';
import { codexRejection } from './shared/codex-error.js';
import { initializeConnection } from './session/handshake.js';

export const chatgptLoginInitSchema = z.strictObject({
  cwd: z.string().min(1).optional(),
  /** How long the login may wait for the person, in ms (default 10 minutes, at most 1 hour). */
  timeoutMs: z.number().int().min(1).max(3_600_000).default(600_000),
});
export type ChatgptLoginInit = z.input<typeof chatgptLoginInitSchema>;

export const CHATGPT_LOGIN_OUTCOMES = ['logged_in', 'failed', 'cancelled', 'timed_out'] as const;

export interface ChatgptLoginEnd {
  readonly outcome: (typeof CHATGPT_LOGIN_OUTCOMES)[number];
  /** The account state codex reports after a login that succeeded. */
  readonly account?: CodexAccountStatus;
}

export interface CodexChatgptLogin {
  /** The address the person opens in a browser (codex's sign-in page; `https`). */
  readonly authUrl: string;
  /** Settles once, when the login ended; never rejects. */
  readonly done: Promise<ChatgptLoginEnd>;
  /** Cancels the login (codex's `account/login/cancel`); resolves once it ended. Idempotent. */
  cancel(): Promise<ChatgptLoginEnd>;
}

const startReplySchema = z.looseObject({
  type: z.literal('chatgpt'),
  loginId: z.string().min(1).max(200),
  authUrl: z.url({ protocol: /^https$/ }).max(8192),
});

const noop = (): void => undefined;
const LOGIN_COMPLETED = 'account/login/completed';

class LoginLifecycle {
  readonly done: Promise<ChatgptLoginEnd>;
  #settle: (end: ChatgptLoginEnd) => void = noop;
  #ending: Promise<ChatgptLoginEnd> | undefined;
  #cancelling = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  loginId: string | undefined;

  constructor(private readonly connection: CodexConnection) {
    this.done = new Promise((resolve) => {
      this.#settle = resolve;
    });
  }

  arm(timeoutMs: number): void {
    this.#timer = setTimeout(() => void this.cancel('timed_out'), timeoutMs);
  }

  /**
   * codex's `account/login/completed` has no schema in the inbound union (its error text is not
   * the adapter's to read): its arrival is the signal, and whether codex is now logged in with
   * ChatGPT is read back with `account/read`. One login per connection, so it is this one's.
   */
  onNotification = (n: InboundNotification): void => {
    if (n.method !== 'unknown' || n.wireMethod !== LOGIN_COMPLETED) return;
    // a completion codex sends because of our own cancel is the cancel's, not a failure
    if (this.#cancelling) return;
    void this.end('completed');
  };

  cancel(outcome: 'cancelled' | 'timed_out' = 'cancelled'): Promise<ChatgptLoginEnd> {
    if (this.#ending !== undefined) return this.#ending;
    this.#cancelling = true;
    const loginId = this.loginId;
    const asked =
      loginId === undefined
        ? Promise.resolve()
        : this.connection
            .request(CODEX_CLIENT_METHOD.accountLoginCancel, { loginId })
            .then(noop, noop);
    return asked.then(() => this.end(outcome));
  }

  end(how: ChatgptLoginEnd['outcome'] | 'completed'): Promise<ChatgptLoginEnd> {
    this.#ending ??= (async () => {
      if (this.#timer !== undefined) clearTimeout(this.#timer);
      let account: CodexAccountStatus | undefined;
      if (how === 'completed') {
        account = await this.connection
          .request(CODEX_CLIENT_METHOD.accountRead, { refreshToken: false })
          .then(accountStatusOf, () => undefined);
      }
      await this.connection.close().catch(noop);
      const outcome: ChatgptLoginEnd['outcome'] =
        how !== 'completed' ? how : account?.authMode === 'chatgpt' ? 'logged_in' : 'failed';
      const end: ChatgptLoginEnd =
        outcome === 'logged_in' && account !== undefined ? { outcome, account } : { outcome };
      this.#settle(end);
      return end;
    })();
    return this.#ending;
  }
}

export async function startChatgptLogin(
  probeOf: (cwd?: string) => CodexProbe,
  init: unknown,
): Promise<CodexChatgptLogin> {
  const parsed = chatgptLoginInitSchema.safeParse(init);
  if (!parsed.success) {
    throw codexRejection('invalid_request', 'invalid ChatGPT login options', {
      providerCode: 'invalid_options',
    });
  }
  const { cwd, timeoutMs } = parsed.data;
  const probe = probeOf(cwd);
  const { connection, startup } = await probe.connect();
  try {
    await initializeConnection(
      connection,
      {
        ...probe.handshake,
        capabilityGate: (version) => new ReleaseCapabilities(version).refusal(['chatgptLogin']),
      },
      startup,
    );
  } catch (error) {
    throw await probe.abandoned.tearDownAfterFailedHandshake(connection, error);
  }
  const login = new LoginLifecycle(connection);
  // listening before the request: the end may come any time after it
  connection.deliverTo({
    onServerRequest: () => false,
    onNotification: login.onNotification,
    onDrop: noop,
    onDiagnostic: noop,
    onEnd: () => void login.end('failed'),
    onFence: noop,
  });
  // a login in progress holds the host's event loop open, as a run does (ADR-0009)
  connection.keepAlive(true);
  let reply: unknown;
  try {
    reply = await connection.request(CODEX_CLIENT_METHOD.accountLoginStart, { type: 'chatgpt' });
  } catch (error) {
    await connection.close().catch(noop);
    throw error;
  }
  const started = startReplySchema.safeParse(reply);
  if (!started.success) {
    await connection.close().catch(noop);
    throw codexRejection(
      'provider_contract_violation',
      'codex started a login without a usable address',
    );
  }
  login.loginId = started.data.loginId;
  login.arm(timeoutMs);
  return {
    authUrl: started.data.authUrl,
    done: login.done,
    cancel: () => login.cancel(),
  };
}
