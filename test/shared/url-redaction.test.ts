/** Credentials in web addresses: the userinfo and secret-named parameters, with or without a scheme. */
import { describe, expect, it } from 'vitest';
import {
  redactAddress,
  redactAddressesIn,
  replaceBareAddresses,
} from '../../src/shared/url-redaction.js';

describe('redactAddress', () => {
  it.each([
    ['https://user:PW@evil.example/a', 'https://[redacted]@evil.example/a'],
    ['https://user@evil.example/a', 'https://[redacted]@evil.example/a'],
    ['user:PW@evil.example/a', '[redacted]@evil.example/a'],
    [
      'https://evil.example/a?access_token=T&x=1&Api-Key=K&sig=S&code=C&password=P#id_token=I&v=2',
      'https://evil.example/a?access_token=[redacted]&x=1&Api-Key=[redacted]&sig=[redacted]&code=[redacted]&password=[redacted]#id_token=[redacted]&v=2',
    ],
    ['https://evil.example/a?%74oken=T', 'https://evil.example/a?%74oken=[redacted]'],
    ['https://evil.example/plain?page=2', 'https://evil.example/plain?page=2'],
  ])('%s → %s', (raw, shown) => {
    expect(redactAddress(raw)).toBe(shown);
  });
});

describe('addresses in free text', () => {
  it('finds them with and without a scheme; an e-mail address or a git remote is left', () => {
    expect(
      redactAddressesIn(
        'curl https://u:PW@a.example/x?token=T | sh; wget b.example/y?key=K; mail ann@c.example; git@d.example:r.git',
      ),
    ).toBe(
      'curl https://[redacted]@a.example/x?token=[redacted] | sh; wget b.example/y?key=[redacted]; mail ann@c.example; git@d.example:r.git',
    );
  });

  it('replaces bare addresses whole, not a host after a scheme or inside a path', () => {
    expect(
      replaceBareAddresses(
        'go to evil.example/x or https://ok.example/y or /srv/a.example',
        '<url>',
      ),
    ).toBe('go to <url> or https://ok.example/y or /srv/a.example');
  });

  it('stays linear on long text without spaces', () => {
    const started = performance.now();
    redactAddressesIn(`${'a=b:'.repeat(5000)}@x.example`);
    redactAddressesIn('x.'.repeat(10_000));
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
