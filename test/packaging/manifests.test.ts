/**
 * What each package.json promises a consumer, read without packing: the dependencies a tarball
 * carries resolve from a registry (no path into this repository), libraries take caret ranges (a
 * host can deduplicate them) while the CLI, an application, pins exact versions, and every bin is a file a clone has before any build (npm links
 * a bin at install time only if its file exists then).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly bin?: Record<string, string>;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly engines?: { readonly node?: string };
}

const PACKAGE_DIRS = ['.', 'packages/agent-provider', 'packages/agent-runtime', 'packages/cli'];

function manifestOf(dir: string): Manifest {
  return JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8')) as Manifest;
}

/** The ranges a consumer's install resolves (devDependencies stay in the repository). */
function shippedRanges(m: Manifest): [string, string][] {
  return [
    ...Object.entries(m.dependencies ?? {}),
    ...Object.entries(m.peerDependencies ?? {}),
    ...Object.entries(m.optionalDependencies ?? {}),
  ];
}

describe('package manifests, as a consumer installs them', () => {
  const manifests = PACKAGE_DIRS.map((dir) => [dir, manifestOf(dir)] as const);
  const local = new Map(manifests.map(([, m]) => [m.name, m.version]));
  const local_ = (name: string): string | undefined => local.get(name);

  it('every package of this repository is listed', () => {
    const workspaces = (manifestOf('.') as Manifest & { workspaces: string[] }).workspaces;
    expect(['.', ...workspaces].sort()).toEqual([...PACKAGE_DIRS].sort());
  });

  it.each(manifests)(
    '%s: shipped dependencies name registry versions, never a local path',
    (dir, m) => {
      for (const [name, range] of shippedRanges(m)) {
        expect(range, `${dir}: ${name}`).not.toMatch(/^(file|link|workspace|portal):|^\.{0,2}\//);
      }
    },
  );

  it.each(manifests)(
    '%s: libraries take caret ranges from the tested version, the CLI exact versions',
    (dir, m) => {
      const application = m.bin !== undefined && dir === 'packages/cli';
      for (const [name, range] of Object.entries(m.dependencies ?? {})) {
        const local = local_(name);
        if (application) {
          expect(range, `${dir}: ${name}`).toMatch(/^\d+\.\d+\.\d+$/);
          if (local !== undefined) expect(range, `${dir}: ${name}`).toBe(local);
        } else {
          expect(range, `${dir}: ${name}`).toMatch(/^\^\d+\.\d+\.\d+$/);
          if (local !== undefined) expect(range, `${dir}: ${name}`).toBe(`^${local}`);
        }
      }
    },
  );

  it('zod is a peer of each library (one copy in a host), pg an optional peer of the runtime', () => {
    for (const dir of ['.', 'packages/agent-provider', 'packages/agent-runtime']) {
      const m = manifestOf(dir) as Manifest & {
        peerDependenciesMeta?: Record<string, { optional?: boolean }>;
      };
      expect(m.peerDependencies?.zod, dir).toMatch(/^\^4\./);
      expect(m.dependencies?.zod, dir).toBeUndefined();
    }
    const runtime = manifestOf('packages/agent-runtime') as Manifest & {
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    expect(runtime.peerDependencies?.pg).toMatch(/^\^8\./);
    expect(runtime.peerDependenciesMeta?.pg?.optional).toBe(true);
    expect(runtime.dependencies?.pg).toBeUndefined();
  });

  it('engines name exactly the Node majors CI runs, the same in all four', () => {
    const ci = readFileSync(join(REPO_ROOT, '.ci/run'), 'utf8');
    const full = /^FULL_NODE=(\d+)$/m.exec(ci)?.[1];
    const smoke = /^SMOKE_NODES=\(([\d ]+)\)$/m.exec(ci)?.[1]?.split(' ') ?? [];
    const tested = [full ?? 'none', ...smoke].map(Number).sort((a, b) => a - b);
    expect(tested.length).toBeGreaterThanOrEqual(4);
    for (const [dir, m] of manifests) {
      const ranges = (m.engines?.node ?? '').split(' || ');
      // each range a caret on one major: the majors the CI matrix runs, nothing open-ended
      const majors = ranges.map((r) => Number(/^\^(\d+)\.\d+\.\d+$/.exec(r)?.[1]));
      expect(majors, `${dir}: engines.node`).toEqual(tested);
    }
  });

  it('@opentelemetry/api is an optional peer of the runtime; the CLI pins the OTLP export packages as optional', () => {
    const runtime = manifestOf('packages/agent-runtime') as Manifest & {
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    expect(runtime.peerDependencies?.['@opentelemetry/api']).toMatch(/^\^1\./);
    expect(runtime.peerDependenciesMeta?.['@opentelemetry/api']?.optional).toBe(true);
    expect(runtime.dependencies?.['@opentelemetry/api']).toBeUndefined();
    const cli = manifestOf('packages/cli');
    const optional = Object.entries(cli.optionalDependencies ?? {});
    expect(optional.map(([name]) => name)).toContain('@opentelemetry/exporter-trace-otlp-http');
    for (const [name, range] of optional) expect(range, name).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("every caret range's floor is what the lockfile installs: the suite runs at the floor", () => {
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string }>;
    };
    const local = new Set(manifests.map(([, m]) => m.name));
    let checked = 0;
    for (const [dir, m] of manifests) {
      for (const [dep, range] of shippedRanges(m)) {
        // vitest: a peer of the testing entry only, which follows the test runner the host has
        if (local.has(dep) || dep === 'vitest' || !range.startsWith('^')) continue;
        const installed = lock.packages[`node_modules/${dep}`]?.version;
        // the newest in range is what test/packaging/tarballs.test.ts installs into a host
        expect(`^${installed ?? 'missing'}`, `${dir}: ${dep}`).toBe(range);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(4);
  });

  it('the SPI package is versioned after the wire it speaks', () => {
    const spi = manifestOf('packages/agent-provider');
    const wire = readFileSync(join(REPO_ROOT, 'packages/agent-provider/src/wire.ts'), 'utf8');
    const major = /WIRE_VERSION\s*=\s*'(\d+\.\d+)'/.exec(wire)?.[1];
    expect(major).toBeDefined();
    expect(spi.version.startsWith(`${major ?? 'none'}.`)).toBe(true);
  });

  it.each(manifests)('%s: every bin is a file of the clone, not build output', (dir, m) => {
    for (const [command, target] of Object.entries(m.bin ?? {})) {
      const path = join(dir, target);
      // tracked or about to be: not ignored like dist/
      const listed = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '--', path], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
      });
      expect(listed.trim(), `${dir}: bin ${command}`).not.toBe('');
    }
  });

  it.each(manifests)('%s: the lockfile links the bins the manifest names', (dir, m) => {
    // `npm ci` links bins from the lockfile's copy of each workspace manifest, not the manifest
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { bin?: Record<string, string> }>;
    };
    const normalized = Object.fromEntries(
      Object.entries(m.bin ?? {}).map(([command, target]) => [
        command,
        target.replace(/^\.\//, ''),
      ]),
    );
    expect(lock.packages[dir === '.' ? '' : dir]?.bin ?? {}).toEqual(normalized);
  });
});
