/**
 * `mcpServers` in a runtime profile: checked when the runtime is created, with the codex
 * provider's own option schema; a duplicate name is refused naming its path, never a value.
 */
import { createCodexProvider } from '@relvo-labs/agent-provider-codex';
import { createAgentRuntime, isRuntimeError } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { oneCodexProfile } from '../support/codex-runtime.js';

const SECRET = 'profile-env-CANARY-1234';

describe('mcpServers in a runtime profile', () => {
  it('a duplicate server name refuses the config at creation; the env value is never echoed', async () => {
    const server = { name: 'tools', command: 'node', env: { TOKEN: SECRET } };
    const refused = await createAgentRuntime({
      providers: { codex: createCodexProvider },
      config: oneCodexProfile({ mcpServers: [server, server] }),
    }).then(
      async (runtime) => {
        await runtime.shutdown();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(isRuntimeError(refused) && refused.reason).toBe('provider_options_refused');
    expect(JSON.stringify(refused)).toContain('mcpServers');
    expect(JSON.stringify(refused)).not.toContain(SECRET);
    expect((refused as Error).message).not.toContain(SECRET);
  });
});
