/**
 * The production transport against the real codex under test (CODEX_UNDER_TEST or the pinned one): the native binary and the
 * node launcher, each handshaken with raw frames and closed; nothing of the group may survive.
 * Offline: the model provider points at 127.0.0.1:9 and plugins/apps/analytics are off.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codexConfigArgs, requireCodexBinary } from '../../src/testing/index.js';
import { describe, expect, it } from 'vitest';
import { createCodexStdioTransport } from '../../src/transport/stdio.js';
import { processesWithEnv } from '../support/proc-scan.js';
import { readFrames } from '../support/frame-reader.js';
import { testEnv } from '../support/processes.js';
import { groupMembers, nextMatching, within } from '../support/stand-ins.js';

const UNDER_TEST = requireCodexBinary({ kind: 'native' });
const NATIVE = UNDER_TEST.path;
const VERSION = UNDER_TEST.version;
const LAUNCHER = requireCodexBinary({ kind: 'launcher' }).path;

/** Nothing can leave the box: the model provider is a closed port on 127.0.0.1. */
export const OFFLINE_CODEX_ARGS = codexConfigArgs({ baseUrl: 'http://127.0.0.1:9/v1' });

const TAG_VAR = 'RELVO_TRANSPORT_REAL_CODEX_TAG';

/** Process groups of live processes whose environment carries `tag`. */
function taggedGroups(tag: string): Set<number> {
  return new Set(processesWithEnv(`${TAG_VAR}=${tag}`).map((p) => p.pgid));
}

describe.each([
  ['native binary', NATIVE],
  ['node launcher', LAUNCHER],
])('real codex under test through the stdio transport (%s)', (_label, executable) => {
  it('handshakes with raw frames and closes with nothing of the group left', async () => {
    expect(existsSync(executable), `pinned codex missing at ${executable}: run npm ci`).toBe(true);
    const home = mkdtempSync(join(tmpdir(), 'codex-home-'));
    const tag = randomUUID();
    const t = createCodexStdioTransport({
      cwd: home,
      executable,
      extraArgs: OFFLINE_CODEX_ARGS,
      env: testEnv({ HOME: home, CODEX_HOME: home, [TAG_VAR]: tag }),
    });
    try {
      const it = readFrames(t);
      await t.send({
        id: 1,
        method: 'initialize',
        params: { clientInfo: { name: 'transport-test', version: '0.0.1' }, capabilities: null },
      });
      const reply = await nextMatching(it, 'initialize reply', (f) => f.id === 1, 20_000);
      const result = reply.result as { userAgent?: unknown };
      expect(result.userAgent).toMatch(
        new RegExp(`^transport-test/${VERSION.replaceAll('.', '\\.')} \\(`),
      );
      await t.send({ method: 'initialized' });

      const groups = taggedGroups(tag);
      expect(groups.size).toBeGreaterThan(0);
      await within(15_000, 'close()', t.close());
      for (const pgid of groups)
        expect(groupMembers(pgid), `group ${pgid} after close`).toEqual([]);
      expect(taggedGroups(tag).size).toBe(0);
    } finally {
      await t.close().catch(() => undefined);
      rmSync(home, { recursive: true, force: true });
    }
  });
});
