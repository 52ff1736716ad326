import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cliPackageRoot } from './codex/locate.js';

function readVersion(): string {
  try {
    const pkg = createRequire(join(cliPackageRoot(), 'noop.js'))('./package.json') as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const CLI_VERSION = readVersion();
