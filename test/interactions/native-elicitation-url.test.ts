/** An MCP server's URL elicitation, raised as an approval that shows the address only if asked. */
import { describe, expect, it } from 'vitest';
import { urlRequest, raise } from '../support/elicitation-requests.js';

describe('MCP URL elicitation → approval', () => {
  it('withholds the address unless the host opted in', () => {
    const withheld = raise(urlRequest).request;
    expect(JSON.stringify(withheld)).not.toContain('example.invalid');
    expect(withheld).toMatchObject({
      subject: { detail: { server: 'elicit', urlWithheld: true } },
      allowedModes: ['once'],
    });
    const shown = raise(urlRequest, true).request;
    expect(shown).toMatchObject({
      subject: {
        summary:
          'The MCP server "elicit" asks you to open a web page: https://example.invalid/consent',
        detail: { url: 'https://example.invalid/consent' },
      },
    });
  });

  it('a shown address keeps no credentials: userinfo and secret-named parameters redacted', () => {
    const r = raise(
      {
        ...urlRequest,
        url: 'https://user:PASSWORD@evil.example/consent?token=TOKEN1&lang=en#access_token=TOKEN2',
        message: 'or go to evil.example/login?code=CODE3 yourself',
      },
      true,
    );
    const everything = JSON.stringify(r.owner.events);
    for (const secret of ['PASSWORD', 'user:', 'TOKEN1', 'TOKEN2', 'CODE3'])
      expect(everything).not.toContain(secret);
    const shown =
      'https://[redacted]@evil.example/consent?token=[redacted]&lang=en#access_token=[redacted]';
    expect(r.request).toMatchObject({
      subject: {
        summary: `The MCP server "elicit" asks you to open a web page: ${shown}`,
        detail: { url: shown, message: 'or go to <url> yourself' },
      },
    });
  });

  it('an address without a scheme in a message is recognised and replaced', () => {
    const r = raise({
      ...urlRequest,
      message:
        'visit evil.example/x then user:pw@evil.example or www.evil.example \u001b[0mevil.example/y',
    });
    expect(r.request).toMatchObject({
      subject: { detail: { message: 'visit <url> then <url> or <url>  <url>' } },
    });
    expect(JSON.stringify(r.owner.events)).not.toContain('evil.example');
  });

  it('accept and deny map to the native actions', async () => {
    const a = raise(urlRequest);
    await a.registry.respond(a.ref, { kind: 'approval', decision: 'approved', mode: 'once' });
    expect(a.log.responded).toEqual([{ action: 'accept', content: null }]);
    const d = raise(urlRequest);
    await d.registry.respond(d.ref, { kind: 'approval', decision: 'denied' });
    expect(d.log.responded).toEqual([{ action: 'decline', content: null }]);
  });
});
