/**
 * The fact ADR-0062 rests on, on the real binary: an app-server process started in one directory
 * (as a warm one would be, in the prewarm workspace) serves a thread started with another `cwd`
 * as if it had been spawned there — commands run there, the sandbox's writable root is there,
 * and that directory's AGENTS.md (not the process's) reaches the model. A codex release that
 * changes this fails here.
 */
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCodexProvider, createCodexStdioTransport } from '../../src/index.js';
import {
  codexConfigArgs,
  execCommandStep,
  functionCallOutput,
  textStep,
} from '../../src/testing/index.js';
import { useCleanups } from '../support/cleanups.js';
import { realCodexParts } from '../support/codex-runtime.js';
import { testEnv } from '../support/processes.js';
import { recordingSink, textInput } from '../support/provider-harness.js';
import { acceptUnderReview } from '../support/releases.js';

const cleanups = useCleanups();

describe('a codex app-server started elsewhere serves a thread in the workspace it is given', () => {
  it('runs the thread in its cwd, not the process directory', async () => {
    const { binary, iso, server } = await realCodexParts(cleanups, 'relvo-e2e-');
    const processDir = realpathSync(mkdtempSync(join(tmpdir(), 'relvo-e2e-process-')));
    cleanups.push(() => {
      rmSync(processDir, { recursive: true, force: true });
    });
    writeFileSync(join(processDir, 'AGENTS.md'), 'MARKER-PROCESS-DIR\n');
    writeFileSync(join(iso.workspace, 'AGENTS.md'), 'MARKER-THREAD-CWD\n');
    const extraArgs = codexConfigArgs({ baseUrl: server.baseUrl });
    const env = iso.env(testEnv());
    const asked: string[] = [];
    const provider = createCodexProvider({
      // the app-server is spawned in processDir whatever workspace the session names
      transport: ({ cwd }) => {
        asked.push(cwd);
        return createCodexStdioTransport({
          executable: binary.path,
          extraArgs,
          cwd: processDir,
          env,
        });
      },
      sandboxMode: 'workspace-write',
      requestTimeoutMs: 20_000,
      additionalAppServerVersions: acceptUnderReview(binary.version),
    });
    const session = await provider.createSession({
      options: {},
      workspace: { root: iso.workspace, ownership: 'borrowed' },
      sink: recordingSink(),
    });
    cleanups.push(() => session.dispose());
    expect(asked).toEqual([iso.workspace]);

    server.enqueue(
      execCommandStep('pwd; touch made-here', { callId: 'call_cwd' }),
      textStep('done'),
    );
    const run = await session.startRun({
      input: textInput('go'),
      sink: recordingSink(),
      runRef: 'cwd',
    });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    const output = functionCallOutput(server.requests[1]!, 'call_cwd') ?? '';
    expect(output).toContain(`\n${iso.workspace}\n`);
    expect(existsSync(join(iso.workspace, 'made-here'))).toBe(true);
    expect(existsSync(join(processDir, 'made-here'))).toBe(false);
    const first = JSON.stringify(server.requests[0]!.body);
    expect(first).toContain('MARKER-THREAD-CWD');
    expect(first).not.toContain('MARKER-PROCESS-DIR');
  });
});
