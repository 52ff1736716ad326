/**
 * Logging codex in and out from a host (`provider.login({ apiKey })`, `provider.logout()`): codex's
 * `account/login/start { type: 'apiKey' }` and `account/logout` on a connection of their own,
 * then `account/read`, so the caller gets the account state after. codex stores the key in its
 * CODEX_HOME (`auth.json`) and validates nothing (measured on 0.171.0: any string is accepted);
 * the key is never logged, echoed, or put in an error.
 */
import { z } from 'zod';
import { accountStatusOf, type CodexAccountStatus } from './account.js';
import { askCodex, type CodexProbe } from './probe.js';
import { CODEX_CLIENT_METHOD } from './protocol/wire-names.js';
import { codexRejection } from './shared/codex-error.js';

export const loginInitSchema = z.strictObject({
  /** Kept out of argv and logs; whitespace and control characters are refused. */
  apiKey: z
    .string()
    .min(1)
    .max(4096)
    .regex(/^[\x21-\x7e]+$/),
  /** The app-server's working directory; default: `process.cwd()`. */
  cwd: z.string().min(1).optional(),
});
export type LoginInit = z.input<typeof loginInitSchema>;

export const logoutInitSchema = z.strictObject({ cwd: z.string().min(1).optional() });
export type LogoutInit = z.input<typeof logoutInitSchema>;

/** The account state after the change, read back from codex (never from what was sent). */
async function accountAfter(
  request: (method: string, params: unknown) => Promise<unknown>,
): Promise<CodexAccountStatus> {
  return accountStatusOf(await request(CODEX_CLIENT_METHOD.accountRead, { refreshToken: false }));
}

/** initialize → `account/login/start { type: 'apiKey' }` → `account/read` → close. */
export function loginWithApiKey(probeOf: (cwd?: string) => CodexProbe, init: unknown) {
  const parsed = loginInitSchema.safeParse(init);
  if (!parsed.success) {
    // the issue paths only: never the value, which is a credential
    const keys = parsed.error.issues.map((i) => i.path.join('.')).slice(0, 8);
    return Promise.reject(
      codexRejection('invalid_request', 'invalid login options', {
        providerCode: 'invalid_options',
        details: { issues: keys },
      }),
    );
  }
  const { apiKey, cwd } = parsed.data;
  return askCodex(probeOf(cwd), 'login', async (connection) => {
    const request = (method: string, params: unknown) => connection.request(method, params);
    await request(CODEX_CLIENT_METHOD.accountLoginStart, { type: 'apiKey', apiKey });
    return accountAfter(request);
  });
}

/** initialize → `account/logout` → `account/read` → close. */
export function logoutOfCodex(probeOf: (cwd?: string) => CodexProbe, init: unknown) {
  const parsed = logoutInitSchema.safeParse(init);
  if (!parsed.success) {
    return Promise.reject(
      codexRejection('invalid_request', 'invalid logout options', {
        providerCode: 'invalid_options',
      }),
    );
  }
  return askCodex(probeOf(parsed.data.cwd), 'login', async (connection) => {
    const request = (method: string, params: unknown) => connection.request(method, params);
    await request(CODEX_CLIENT_METHOD.accountLogout, undefined);
    return accountAfter(request);
  });
}
