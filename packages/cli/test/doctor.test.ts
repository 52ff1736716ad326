/**
 * `relvo-codex doctor` against the real pinned codex and against stand-in executables that
 * report a version outside the reviewed window.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import {
  CODEX_APP_SERVER_VERSION,
  CODEX_SUPPORTED_APP_SERVER_VERSIONS,
} from '@relvo-labs/agent-provider-codex';
import { runCli, survivorsAfter, standInCodex } from './support/cli.js';
import { apiKeyLoggedInHome, homeEnv, loopbackModelHost } from './support/codex-login.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A tiny executable that answers `--version` like codex does, with the given version. */
function standIn(version: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'relvo-standin-'));
  dirs.push(dir);
  return standInCodex(dir, `codex-cli ${version}`);
}

function parseOne(stdout: string): Record<string, unknown> {
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

describe('relvo-codex doctor --json', () => {
  it('reports the pinned codex in the window, with a handshake time and the app-server group usage', async () => {
    // a logged-in codex home: the person's own login is never what a test depends on
    const home = await apiKeyLoggedInHome();
    dirs.push(home.root);
    const host = await loopbackModelHost();
    onTestFinished(() => host.close());
    const result = await runCli(['doctor', '--json'], {
      env: { ...homeEnv(home), ...host.env },
      unset: ['RELVO_CODEX_EXECUTABLE'],
    });
    expect(result.stderr).not.toContain('unexpected');
    expect(result.code).toBe(0);
    const report = parseOne(result.stdout) as {
      codex: { path: string; version: string; kind: string; source: string };
      inWindow: boolean;
      installHint: unknown;
      handshake: { ok: boolean; ms: number };
      resources: { rssBytes: number; processes: number };
      eventLog: { path: string };
      problems: unknown[];
    };
    expect(report.codex.version).toBe(CODEX_APP_SERVER_VERSION);
    expect(report.codex.source).toBe('pinned');
    expect(report.codex.kind).toBe('native');
    expect(report.codex.path).toMatch(/@openai\/codex-[a-z0-9-]+\/vendor\/.+\/bin\/codex(\.exe)?$/);
    expect(report.inWindow).toBe(true);
    expect((report as { windowPosition?: unknown }).windowPosition).toBe('inside');
    expect(report.installHint).toBeNull();
    expect(report.handshake.ok).toBe(true);
    expect(report.handshake.ms).toBeGreaterThan(0);
    expect(report.resources.rssBytes).toBeGreaterThan(0);
    expect(report.resources.processes).toBeGreaterThanOrEqual(1);
    expect(report.eventLog.path).toMatch(/events\.sqlite$/);
    expect(report.problems).toEqual([]);
    // the model host (a loopback stand-in) was checked: connected, and nothing was sent to it
    expect((report as { reach?: unknown }).reach).toMatchObject({
      checked: true,
      ok: true,
      url: host.env.OPENAI_BASE_URL.replace(/\/v1$/, ''),
    });
    expect(host.bytesReceived()).toBe(0);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });

  it('--codex naming a release older than the window: upgrade to the baseline, exit 3', async () => {
    const path = standIn('0.1.0');
    const result = await runCli(['doctor', '--json', '--codex', path]);
    expect(result.code).toBe(3);
    const report = parseOne(result.stdout) as {
      codex: { path: string; version: string; source: string };
      inWindow: boolean;
      windowPosition: string;
      installHint: string;
      handshake: { ok: boolean; skipped?: string };
      problems: { problem: string; nextStep: string }[];
    };
    expect(report.codex).toMatchObject({ path, version: '0.1.0', source: 'option' });
    expect(report.inWindow).toBe(false);
    expect(report.windowPosition).toBe('older');
    expect(report.installHint).toContain(`@openai/codex@${CODEX_APP_SERVER_VERSION}`);
    expect(report.handshake).toMatchObject({ ok: false, skipped: expect.any(String) });
    expect(report.problems).toEqual([
      {
        problem: expect.stringMatching(/^codex 0\.1\.0 is older than the reviewed window \(/),
        nextStep: `upgrade to the baseline: \`${report.installHint}\``,
      },
    ]);
  });

  it('--codex naming a release newer than the window: review it in a clone, exit 3', async () => {
    const [major, minor] = (CODEX_SUPPORTED_APP_SERVER_VERSIONS.at(-1) ?? '').split('.');
    const newer = `${major}.${Number(minor) + 1}.0`;
    const result = await runCli(['doctor', '--json', '--codex', standIn(newer)]);
    expect(result.code).toBe(3);
    const report = parseOne(result.stdout) as {
      windowPosition: string;
      installHint: string;
      problems: { problem: string; nextStep: string }[];
    };
    expect(report.windowPosition).toBe('newer');
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]!.problem).toMatch(
      new RegExp(`^codex ${newer.replaceAll('.', '\\.')} is newer than the reviewed window \\(`),
    );
    // the exact command; reviewing needs the repository, so no CLI command is offered for it
    expect(report.problems[0]!.nextStep).toBe(
      `review it in a clone of the provider repository: \`npm run review -- ${newer}\`; ` +
        `or install the baseline: \`${report.installHint}\``,
    );
    expect(report.problems[0]!.nextStep).not.toContain('relvo-codex review');
  });

  it('a release between reviewed ones is still outside: the window is a list, not a range', async () => {
    const [first] = CODEX_SUPPORTED_APP_SERVER_VERSIONS;
    const [major, minor] = first.split('.');
    const unreviewed = `${major}.${minor}.999`;
    expect(CODEX_SUPPORTED_APP_SERVER_VERSIONS as readonly string[]).not.toContain(unreviewed);
    const result = await runCli(['doctor', '--json'], {
      env: { RELVO_CODEX_EXECUTABLE: standIn(unreviewed) },
    });
    expect(result.code).toBe(3);
    expect(parseOne(result.stdout)).toMatchObject({
      codex: { version: unreviewed, source: 'env' },
      inWindow: false,
      windowPosition: 'between',
      problems: [
        {
          problem: expect.stringContaining('is not a reviewed release'),
          nextStep: expect.stringContaining(`\`npm run review -- ${unreviewed}\``),
        },
      ],
    });
  });

  it('a --codex that is not an executable: found false, exit 3, a next step', async () => {
    const result = await runCli(['doctor', '--json', '--codex', '/nonexistent/codex']);
    expect(result.code).toBe(3);
    const report = parseOne(result.stdout) as {
      codex: { found: boolean; path: string };
      inWindow: boolean;
      problems: { nextStep: string }[];
    };
    expect(report.codex).toMatchObject({ found: false, path: '/nonexistent/codex' });
    expect(report.inWindow).toBe(false);
    expect(report.problems[0]!.nextStep).toMatch(/codex/);
  });

  it('a stand-in that prints no version: exit 3 with the probe failure named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relvo-standin-'));
    dirs.push(dir);
    const path = standInCodex(dir, 'something else');
    const result = await runCli(['doctor', '--json', '--codex', path]);
    expect(result.code).toBe(3);
    expect(parseOne(result.stdout)).toMatchObject({
      codex: { found: true, version: null },
      inWindow: false,
      problems: [{ problem: expect.stringContaining('unparsable') }],
    });
  });

  it('the human report is on stdout with the window as a range; NO_COLOR means no escape sequences', async () => {
    const result = await runCli(['doctor', '--codex', standIn('0.1.0')], {
      env: { NO_COLOR: '1' },
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('relvo-codex doctor');
    expect(result.stdout).toContain('codex 0.1.0 is older than the reviewed window');
    expect(result.stdout).toContain('next step:');
    const [min, max] = [
      CODEX_SUPPORTED_APP_SERVER_VERSIONS[0],
      CODEX_SUPPORTED_APP_SERVER_VERSIONS.at(-1),
    ];
    expect(result.stdout).toContain(
      `reviewed: ${min} – ${max} (${CODEX_SUPPORTED_APP_SERVER_VERSIONS.length} reviewed releases)`,
    );
    expect(result.stderr).not.toContain('relvo-codex doctor');
    // eslint-disable-next-line no-control-regex
    expect(result.stdout + result.stderr).not.toMatch(/\u001b\[/);
  });

  it('a codex whose --version fails is named as such, with what it did', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relvo-standin-'));
    dirs.push(dir);
    const path = join(dir, 'codex');
    writeFileSync(path, '#!/bin/sh\necho "no such option" >&2\nexit 2\n');
    chmodSync(path, 0o755);
    const result = await runCli(['doctor', '--codex', path], { env: { NO_COLOR: '1' } });
    expect(result.code).toBe(3);
    expect(result.stdout).toContain(
      `version    \`${path} --version\` failed: it exited with an error`,
    );
    const json = await runCli(['doctor', '--json', '--codex', path]);
    expect(parseOne(json.stdout)).toMatchObject({
      codex: { version: null, versionError: expect.stringContaining('--version` failed') },
    });
  });
});
