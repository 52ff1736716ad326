/**
 * Locates the pinned `@openai/codex` devDependency for tests, evidence and the demo. The
 * published adapter never calls this: hosts provide their own executable.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';

export const CODEX_BINARY_KINDS = ['native', 'launcher'] as const;
export type CodexBinaryKind = (typeof CODEX_BINARY_KINDS)[number];

export interface CodexBinary {
  readonly found: true;
  /** Absolute path to spawn. */
  readonly path: string;
  readonly kind: CodexBinaryKind;
  /** Plain `X.Y.Z` of the installed package (platform suffix stripped). */
  readonly version: string;
}

export const CODEX_NOT_FOUND_REASONS = [
  'package_missing',
  'platform_unsupported',
  'platform_package_missing',
  'binary_missing',
] as const;
export type CodexNotFoundReason = (typeof CODEX_NOT_FOUND_REASONS)[number];

export interface CodexBinaryNotFound {
  readonly found: false;
  readonly kind: CodexBinaryKind;
  readonly reason: CodexNotFoundReason;
}

export interface LocateCodexOptions {
  readonly kind: CodexBinaryKind;
  /** Directory whose node_modules resolution is used; defaults to `process.cwd()`. */
  readonly from?: string;
  readonly platform?: NodeJS.Platform;
  readonly arch?: string;
}

interface PlatformTarget {
  readonly pkg: string;
  readonly triple: string;
  readonly exe: string;
}

// Mirrors the launcher's table: platform package alias + Rust target triple.
const PLATFORM_TARGETS: Readonly<Record<string, PlatformTarget>> = {
  'linux-x64': {
    pkg: '@openai/codex-linux-x64',
    triple: 'x86_64-unknown-linux-musl',
    exe: 'codex',
  },
  'linux-arm64': {
    pkg: '@openai/codex-linux-arm64',
    triple: 'aarch64-unknown-linux-musl',
    exe: 'codex',
  },
  'darwin-x64': { pkg: '@openai/codex-darwin-x64', triple: 'x86_64-apple-darwin', exe: 'codex' },
  'darwin-arm64': {
    pkg: '@openai/codex-darwin-arm64',
    triple: 'aarch64-apple-darwin',
    exe: 'codex',
  },
  'win32-x64': {
    pkg: '@openai/codex-win32-x64',
    triple: 'x86_64-pc-windows-msvc',
    exe: 'codex.exe',
  },
  'win32-arm64': {
    pkg: '@openai/codex-win32-arm64',
    triple: 'aarch64-pc-windows-msvc',
    exe: 'codex.exe',
  },
};

function resolvePackageJson(from: string, pkg: string): string | undefined {
  try {
    return createRequire(join(from, 'noop.js')).resolve(`${pkg}/package.json`);
  } catch {
    return undefined;
  }
}

function readVersion(pkgJsonPath: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(pkgJsonPath, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || !('version' in parsed)) return undefined;
    const version = parsed.version;
    if (typeof version !== 'string') return undefined;
    // Platform builds are published as `X.Y.Z-<platform>`; keep the plain release.
    return /^(\d+\.\d+\.\d+)/.exec(version)?.[1];
  } catch {
    return undefined;
  }
}

/** Find the pinned codex, or say precisely why it is not there. Never throws. */
export function locateCodexBinary(options: LocateCodexOptions): CodexBinary | CodexBinaryNotFound {
  const { kind } = options;
  const from = resolve(options.from ?? process.cwd());
  const notFound = (reason: CodexNotFoundReason): CodexBinaryNotFound => ({
    found: false,
    kind,
    reason,
  });

  const mainPkgJson = resolvePackageJson(from, '@openai/codex');
  if (mainPkgJson === undefined) return notFound('package_missing');
  const version = readVersion(mainPkgJson);
  if (version === undefined) return notFound('package_missing');
  const mainDir = dirname(mainPkgJson);

  if (kind === 'launcher') {
    // Prefer the .bin shim that `npm exec codex` would run; fall back to the script it links to.
    const candidates = [
      join(dirname(dirname(mainDir)), '.bin', 'codex'),
      join(mainDir, 'bin', 'codex.js'),
    ];
    const path = candidates.find((p) => existsSync(p));
    return path === undefined ? notFound('binary_missing') : { found: true, path, kind, version };
  }

  const target =
    PLATFORM_TARGETS[`${options.platform ?? process.platform}-${options.arch ?? process.arch}`];
  if (target === undefined) return notFound('platform_unsupported');
  // The platform package is an optionalDependency of @openai/codex: resolve it from there first.
  const platformPkgJson =
    resolvePackageJson(mainDir, target.pkg) ?? resolvePackageJson(from, target.pkg);
  if (platformPkgJson === undefined) return notFound('platform_package_missing');
  const path = join(dirname(platformPkgJson), 'vendor', target.triple, 'bin', target.exe);
  if (!existsSync(path)) return notFound('binary_missing');
  return { found: true, path, kind, version: readVersion(platformPkgJson) ?? version };
}

/**
 * The one override that points every real-binary test at another codex: the path of a native
 * binary (`npm run review` sets it to the release under review). The launcher, when a test asks
 * for it, is the one installed beside that binary.
 */
export const CODEX_UNDER_TEST_ENV = 'CODEX_UNDER_TEST';

const reportedVersions = new Map<string, string | undefined>();

/** `X.Y.Z` from `<binary> --version` (`codex-cli X.Y.Z`), or undefined when it says otherwise. */
export function codexReportedVersion(binary: string): string | undefined {
  if (reportedVersions.has(binary)) return reportedVersions.get(binary);
  let version: string | undefined;
  try {
    const out = execFileSync(binary, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 30_000,
    }).trim();
    version = /^codex-cli (\d+\.\d+\.\d+)$/.exec(out)?.[1];
  } catch {
    version = undefined;
  }
  reportedVersions.set(binary, version);
  return version;
}

function overrideBinary(override: string, options: LocateCodexOptions): CodexBinary {
  const native = resolve(override);
  const version = existsSync(native) ? codexReportedVersion(native) : undefined;
  if (version === undefined) {
    throw new Error(`${CODEX_UNDER_TEST_ENV} is not a codex binary that reports its version`);
  }
  if (options.kind === 'native') return { found: true, path: native, kind: 'native', version };
  // The launcher of an npm install lives in the node_modules above the platform package.
  const cut = native.lastIndexOf(`${sep}node_modules${sep}`);
  const launcher =
    cut < 0 ? undefined : locateCodexBinary({ kind: 'launcher', from: native.slice(0, cut) });
  if (launcher?.found !== true || launcher.version !== version) {
    throw new Error(`${CODEX_UNDER_TEST_ENV} has no codex launcher of the same release beside it`);
  }
  return launcher;
}

/**
 * For tests that need the real binary: the codex under test (`CODEX_UNDER_TEST`, else the
 * pinned devDependency), or a throw. It never offers a skip — a missing binary is a failure
 * everywhere, and under `CI=true` the message says so explicitly.
 */
export function requireCodexBinary(
  options: LocateCodexOptions & { readonly env?: NodeJS.ProcessEnv },
): CodexBinary {
  const env = options.env ?? process.env;
  const override = env[CODEX_UNDER_TEST_ENV];
  if (options.from === undefined && override !== undefined && override !== '') {
    return overrideBinary(override, options);
  }
  const located = locateCodexBinary(options);
  if (located.found) return located;
  const ci = env.CI === 'true';
  throw new Error(
    `codex ${located.kind} binary not found (${located.reason})` +
      (ci
        ? ': CI=true requires the pinned @openai/codex devDependency'
        : ': run `npm ci` to install @openai/codex'),
  );
}
