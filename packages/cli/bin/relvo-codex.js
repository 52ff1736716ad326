#!/usr/bin/env node
// npm links a bin only if its file exists at install time, and a clone has no dist/ then: this
// committed launcher is what gets linked, and it starts the build.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const built = new URL('../dist/bin.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write('relvo-codex is not built: run `npm run build` in the repository first\n');
  process.exitCode = 1;
}
