// `node scripts/side-by-side.mjs lint typecheck`: runs the named root scripts at the same time
// (in `npm test`, lint and typecheck each keep one core busy for a minute or more and neither
// needs the other). Each one's output is held and printed whole when it ends, so the two never
// interleave; the exit code is non-zero when any of them failed.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import process from 'node:process';

const names = process.argv.slice(2);
if (names.length === 0) {
  process.stderr.write('usage: node scripts/side-by-side.mjs <script> [<script> …]\n');
  process.exit(2);
}
// under `npm test` this is the npm that runs it; alone, the one on PATH
const npmCli = process.env.npm_execpath;
const [file, prefix] =
  npmCli !== undefined && npmCli.endsWith('.js') ? [process.execPath, [npmCli]] : ['npm', []];

/** @param {string} name @returns {Promise<boolean>} */
function run(name) {
  const started = Date.now();
  return new Promise((resolve) => {
    /** @type {Buffer[]} */
    const output = [];
    const child = spawn(file, [...prefix, 'run', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    /** @param {Buffer} chunk */
    const keep = (chunk) => output.push(chunk);
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => {
      process.stderr.write(`npm run ${name} could not start: ${error.message}\n`);
      resolve(false);
    });
    child.on('close', (code, signal) => {
      process.stdout.write(Buffer.concat(output));
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const status = code === 0 ? 'passed' : `failed (${String(code ?? signal)})`;
      process.stdout.write(`npm run ${name}: ${status} in ${seconds} s\n`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(names.map(run));
process.exitCode = results.every(Boolean) ? 0 : 1;
