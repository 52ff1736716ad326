/** The config's `host` object: carried for the program that loads the file, never read here. */
import { isRuntimeError, parseRuntimeConfig } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';

const profiles = { p: { provider: 'scripted' } };

describe('host config: the host object', () => {
  it('is kept as written, whatever keys the host gave it', () => {
    const host = { ephemeral: true, nested: { anything: [1, 'two'] } };
    expect(parseRuntimeConfig({ defaultProfile: 'p', profiles, host }).host).toEqual(host);
    expect(parseRuntimeConfig({ defaultProfile: 'p', profiles }).host).toBeUndefined();
  });

  it('must be a JSON object: anything else is refused at host', () => {
    let error: unknown;
    try {
      parseRuntimeConfig({ defaultProfile: 'p', profiles, host: 'ephemeral' });
    } catch (e) {
      error = e;
    }
    expect(isRuntimeError(error) && error.reason).toBe('config_invalid');
    expect(isRuntimeError(error) && error.error.details).toMatchObject({ path: 'host' });
  });
});
