/** The command-approval translator's refusals: each token, for what codex may send. */
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '@relvo-labs/agent-provider';
import { translateCommandApproval } from '../../src/interactions/native-approval.js';
import { realApprovalParams } from '../support/interaction-frames.js';
import { approvalWithout, refusalTokenOf } from '../support/native-translations.js';

const tokenOf = refusalTokenOf(translateCommandApproval);

describe('translateCommandApproval: refusal tokens', () => {
  it.each<[string, unknown]>([
    ['params not an object', 'nope'],
    ['params null', null],
    ['unknown top-level key', realApprovalParams({ additionalPermissions: null })],
    ['missing itemId', approvalWithout('itemId')],
    ['missing startedAtMs', approvalWithout('startedAtMs')],
    ['fractional startedAtMs', realApprovalParams({ startedAtMs: 1.5 })],
    ['unsafe startedAtMs', realApprovalParams({ startedAtMs: 2 ** 60 })],
    ['empty threadId', realApprovalParams({ threadId: '' })],
    ['empty turnId', realApprovalParams({ turnId: '' })],
    ['kind null', realApprovalParams({ kind: null })],
    ['command not a string', realApprovalParams({ command: 42 })],
    [
      'unknown command-action variant',
      realApprovalParams({ commandActions: [{ type: 'exec', command: 'x' }] }),
    ],
    [
      'extra key in a command action',
      realApprovalParams({ commandActions: [{ type: 'unknown', command: 'x', extra: 1 }] }),
    ],
    [
      'read action without name',
      realApprovalParams({ commandActions: [{ type: 'read', command: 'cat a', path: 'a' }] }),
    ],
    ['unknown decision string', realApprovalParams({ availableDecisions: ['accept', 'approve'] })],
    [
      'two-key decision object',
      realApprovalParams({ availableDecisions: [{ accept: {}, decline: {} }] }),
    ],
    [
      'decision object with bad inner shape',
      realApprovalParams({ availableDecisions: [{ acceptWithExecpolicyAmendment: {} }] }),
    ],
    ['execpolicy amendment not strings', realApprovalParams({ proposedExecpolicyAmendment: [1] })],
    [
      'bad network action',
      realApprovalParams({ proposedNetworkPolicyAmendments: [{ action: 'maybe', host: 'h' }] }),
    ],
    [
      'bad network protocol',
      realApprovalParams({ networkApprovalContext: { host: 'h', protocol: 'ftp' } }),
    ],
  ])('malformed: %s', (_label, params) => {
    expect(tokenOf(params)).toBe('malformed');
  });

  it.each(['writeStdin', 'bogus', ''])('kind_unsupported: kind %j', (kind) => {
    expect(tokenOf(realApprovalParams({ kind }))).toBe('kind_unsupported');
  });

  it('environmentId: absent, null and "local" accepted; any other value refused', () => {
    expect(tokenOf(approvalWithout('environmentId'))).toBe('ok');
    expect(tokenOf(realApprovalParams({ environmentId: null }))).toBe('ok');
    expect(tokenOf(realApprovalParams({ environmentId: 'local' }))).toBe('ok');
    expect(tokenOf(realApprovalParams({ environmentId: 'remote-1' }))).toBe(
      'environment_unsupported',
    );
    expect(tokenOf(realApprovalParams({ environmentId: '' }))).toBe('environment_unsupported');
    expect(tokenOf(realApprovalParams({ environmentId: 'LOCAL' }))).toBe('environment_unsupported');
  });

  it.each<[string, unknown]>([
    ['absent', undefined],
    ['null', null],
    ['empty', ''],
    ['whitespace', '  \t\n'],
  ])('no_reviewable_command: command %s', (label, command) => {
    const params =
      label === 'absent' ? approvalWithout('command') : realApprovalParams({ command });
    expect(tokenOf(params)).toBe('no_reviewable_command');
  });

  it('policy_amendment_proposed: network amendments, network context, a network decision', () => {
    expect(
      tokenOf(
        realApprovalParams({
          proposedNetworkPolicyAmendments: [{ action: 'allow', host: 'example.org' }],
        }),
      ),
    ).toBe('policy_amendment_proposed');
    expect(
      tokenOf(
        realApprovalParams({ networkApprovalContext: { host: 'example.org', protocol: 'https' } }),
      ),
    ).toBe('policy_amendment_proposed');
    expect(
      tokenOf(
        realApprovalParams({
          availableDecisions: [
            'accept',
            {
              applyNetworkPolicyAmendment: {
                network_policy_amendment: { action: 'deny', host: 'h' },
              },
            },
          ],
        }),
      ),
    ).toBe('policy_amendment_proposed');
    // An empty list proposes nothing; an execpolicy amendment alone is an option we never choose.
    expect(tokenOf(realApprovalParams({ proposedNetworkPolicyAmendments: [] }))).toBe('ok');
    expect(tokenOf(realApprovalParams({ proposedExecpolicyAmendment: ['rm', '-rf'] }))).toBe('ok');
    expect(tokenOf(realApprovalParams({ proposedExecpolicyAmendment: [] }))).toBe('ok');
  });

  it('detail_too_large: canonical detail over 16,000 is refused, never truncated; 16,000 is accepted', () => {
    const base = canonicalJson({ command: '' }).length;
    const fits = 'x'.repeat(16_000 - base);
    const exact = realApprovalParams({
      command: fits,
      cwd: null,
      reason: null,
      commandActions: null,
    });
    const over = realApprovalParams({
      command: `${fits}y`,
      cwd: null,
      reason: null,
      commandActions: null,
    });
    expect(tokenOf(exact)).toBe('ok');
    expect(tokenOf(over)).toBe('detail_too_large');
    expect(tokenOf(realApprovalParams({ command: 'ls', reason: 'r'.repeat(16_000) }))).toBe(
      'detail_too_large',
    );
  });
});
