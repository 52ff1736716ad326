#!/usr/bin/env node
// The scripted Responses-API model as a process of its own (docs/testing.md §4.1). npm links a
// bin only if its file exists at install time, and a clone has no dist/ then: this committed
// launcher is what gets linked, and it loads the build.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const built = new URL('../dist/scripted-model.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write(
    'relvo-codex-scripted-model is not built: run `npm run build` in the repository first\n',
  );
  process.exitCode = 1;
}
