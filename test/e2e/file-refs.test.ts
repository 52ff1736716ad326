/**
 * File references on the real binary (ADR-0017): what the model request really carries.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProviderRejection, type TurnInput } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { ONE_PIXEL_PNG } from '../../scripts/lib/scenarios-tools.js';
import { textStep } from '../../src/testing/index.js';
import { openRealCodex } from '../support/real-codex.js';
import * as turns from '../support/turns.js';

describe('file references against the real binary', () => {
  it('the model request names the workspace-relative path and carries the image', async () => {
    const codex = await openRealCodex({ fileReferences: 'resolve' });
    mkdirSync(join(codex.iso.workspace, 'notes'), { recursive: true });
    writeFileSync(join(codex.iso.workspace, 'notes', 'a.txt'), 'x\n');
    writeFileSync(join(codex.iso.workspace, 'pic.png'), ONE_PIXEL_PNG);
    codex.server.enqueue(textStep('seen'));
    const look: TurnInput = {
      parts: [
        { type: 'text', text: 'look' },
        { type: 'file_ref', path: 'notes/a.txt' },
        { type: 'file_ref', path: 'pic.png' },
      ],
    };
    expect(await turns.end(codex.session, look, 'f')).toEqual({ outcome: 'succeeded' });
    const input = (codex.server.requests[0]?.body as { input: unknown[] }).input;
    const last = JSON.stringify(input.at(-1));
    expect(last).toContain('[referenced file: notes/a.txt]');
    expect(last).toContain('[referenced file: pic.png]');
    expect(last).toContain('input_image');
    expect(JSON.stringify(input)).not.toContain(codex.iso.workspace + '/notes');
  });

  it('a symlink out of the workspace is refused and nothing reaches the model', async () => {
    const codex = await openRealCodex({ fileReferences: 'resolve' });
    symlinkSync(join(codex.iso.home, '.codex'), join(codex.iso.workspace, 'escape'));
    const error = await turns.refusal(
      codex.session,
      { parts: [{ type: 'file_ref', path: 'escape' }] },
      'e',
    );
    expect(isProviderRejection(error) && error.agentError).toMatchObject({
      code: 'invalid_request',
      providerCode: 'file_ref_outside_workspace',
    });
    expect(codex.server.requests).toHaveLength(0);
  });
});
