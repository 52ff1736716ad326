/** `account/read`'s answer → the bounded status a host sees (src/account.ts). */
import { describe, expect, it } from 'vitest';
import { accountStatusOf } from '../../src/account.js';

describe('accountStatusOf', () => {
  it('a ChatGPT login: its kind and plan, never the email', () => {
    const status = accountStatusOf({
      account: { type: 'chatgpt', email: 'someone@example.com', planType: 'plus' },
      requiresOpenaiAuth: true,
      userId: 'user-1',
    });
    expect(status).toEqual({
      loggedIn: true,
      requiresOpenaiAuth: true,
      authMode: 'chatgpt',
      planType: 'plus',
    });
    expect(JSON.stringify(status)).not.toContain('example.com');
  });

  it('a kind newer than the pinned schema is `unknown`; a plan that is not a token is left out', () => {
    expect(
      accountStatusOf({
        account: { type: 'someNewKind', planType: 'Plus <b>' },
        requiresOpenaiAuth: true,
      }),
    ).toEqual({ loggedIn: true, requiresOpenaiAuth: true, authMode: 'unknown' });
  });
});
