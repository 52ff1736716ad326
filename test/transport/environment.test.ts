/** The environment rules of ADR-0013 as pure functions; the real-binary proof is in test/e2e. */
import { describe, expect, it } from 'vitest';
import {
  COMMAND_ENV_EXCLUDES,
  commandEnvironmentArgs,
  inheritedEnvironment,
} from '../../src/transport/environment.js';

describe('inheritedEnvironment', () => {
  /** What codex needs to run and log in, and the owner marker: all of it is inherited. */
  const needed = {
    PATH: '/usr/bin',
    HOME: '/home/h',
    LC_ALL: 'C.UTF-8',
    XDG_CONFIG_HOME: '/home/h/.config',
    OPENAI_API_KEY: 'sk-codex-needs-this',
    RELVO_CODEX_OWNER: 'owner',
  };
  const host = {
    ...needed,
    GITHUB_TOKEN: 'ghp_host',
    DATABASE_PASSWORD: 'pw',
    MY_APP_SETTING: 'x',
    UNDEFINED_ONE: undefined,
  };

  it('keeps only what codex needs to run and log in, plus the owner marker', () => {
    expect(inheritedEnvironment(host)).toEqual(needed);
  });

  it('adds the names a host lists, and only those', () => {
    expect(inheritedEnvironment(host, ['MY_APP_SETTING', 'ABSENT'])).toMatchObject({
      MY_APP_SETTING: 'x',
    });
    expect(inheritedEnvironment(host, ['MY_APP_SETTING'])).not.toHaveProperty('GITHUB_TOKEN');
  });
});

describe('commandEnvironmentArgs', () => {
  it("'filtered' turns the shell snapshot off and excludes secret-shaped names", () => {
    const args = commandEnvironmentArgs('filtered');
    expect(args.filter((_, i) => i % 2 === 0).every((a) => a === '-c')).toBe(true);
    const pairs = args.filter((_, i) => i % 2 === 1);
    expect(pairs).toContain('features.shell_snapshot=false');
    expect(pairs).toContain('shell_environment_policy.ignore_default_excludes=false');
    const exclude = pairs.find((p) => p.startsWith('shell_environment_policy.exclude='));
    expect(JSON.parse(exclude!.slice('shell_environment_policy.exclude='.length))).toEqual([
      ...COMMAND_ENV_EXCLUDES,
    ]);
  });

  it('no pattern matches the owner marker', () => {
    const matches = (pattern: string, name: string): boolean =>
      new RegExp(`^${pattern.replace(/\*/g, '.*')}$`, 'i').test(name);
    for (const p of COMMAND_ENV_EXCLUDES) expect(matches(p, 'RELVO_CODEX_OWNER')).toBe(false);
  });

  it("'inherit' adds nothing: codex's default", () => {
    expect(commandEnvironmentArgs('inherit')).toEqual([]);
  });
});
