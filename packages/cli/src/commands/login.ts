/**
 * `relvo-codex login` / `logout`: your own codex (its CODEX_HOME) logged in with an API key, or
 * out, through the app-server (`provider.login`, `provider.logout`). The key comes from stdin and
 * never from argv (argv is visible to every user in `ps`); it is never printed. What is printed
 * is the login codex reports afterwards (`account/read`).
 */
import { password } from '@inquirer/prompts';
import { requireReviewedCodex } from '../codex/gate.js';
import { accountProvider, describeLogin, errorToken } from '../codex/login.js';
import { CliExit, EXIT, type ExitCode } from '../exit-codes.js';
import type { Output } from '../ui/output.js';

/** How long each request to codex may take. */
export const LOGIN_TIMEOUT_MS = 30_000;
/** More than any API key; a longer stdin is not a key. */
const MAX_KEY_BYTES = 8192;

export interface LoginOptions {
  readonly codex?: string | undefined;
}

/** The key piped on stdin: one line, surrounding whitespace dropped. */
async function keyFromPipe(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > MAX_KEY_BYTES) throw new CliExit(EXIT.usage, 'stdin is longer than an API key');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8').trim();
}

async function readKey(
  stdin: NodeJS.ReadStream,
  prompts: NodeJS.WriteStream,
  out: Output,
): Promise<string> {
  if (!stdin.isTTY) return keyFromPipe(stdin);
  out.note(
    'paste the API key (it is not shown); or pipe it: printenv OPENAI_API_KEY | relvo-codex login',
  );
  try {
    // the command's own streams: the prompt on stderr, stdout kept for the result
    const context = { input: stdin, output: prompts, clearPromptOnDone: true };
    return (await password({ message: 'API key:', mask: false }, context)).trim();
  } catch {
    throw new CliExit(EXIT.interrupted, 'login cancelled');
  }
}

export async function runLogin(
  options: LoginOptions,
  out: Output,
  env: NodeJS.ProcessEnv,
  stdin: NodeJS.ReadStream,
  prompts: NodeJS.WriteStream,
): Promise<ExitCode> {
  const codex = await requireReviewedCodex(options.codex, env);
  const apiKey = await readKey(stdin, prompts, out);
  if (apiKey === '') throw new CliExit(EXIT.usage, 'no API key on stdin');
  const provider = accountProvider(codex.path, env, LOGIN_TIMEOUT_MS);
  let after;
  try {
    after = await provider.login({ apiKey, cwd: process.cwd() });
  } catch (error) {
    // the token only: a refusal names which option was wrong, never the key
    throw new CliExit(EXIT.failed, `codex did not log in (${errorToken(error)})`);
  }
  out.print(`codex: ${describeLogin({ checked: true, ...after })}`);
  return after.authMode === 'apiKey' ? EXIT.ok : EXIT.failed;
}

export async function runLogout(
  options: LoginOptions,
  out: Output,
  env: NodeJS.ProcessEnv,
): Promise<ExitCode> {
  const codex = await requireReviewedCodex(options.codex, env);
  const provider = accountProvider(codex.path, env, LOGIN_TIMEOUT_MS);
  let after;
  try {
    after = await provider.logout({ cwd: process.cwd() });
  } catch (error) {
    throw new CliExit(EXIT.failed, `codex did not log out (${errorToken(error)})`);
  }
  out.print(`codex: ${describeLogin({ checked: true, ...after })}`);
  return after.authMode === null ? EXIT.ok : EXIT.failed;
}
