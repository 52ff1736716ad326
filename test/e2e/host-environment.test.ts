/**
 * The host's secrets stay with the host (ADR-0013), on the real binary: the
 * model runs `env`, and what the command printed is read from the model's follow-up request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  execCommandStep,
  functionCallOutput,
  textStep,
  type IsolatedCodexHome,
} from '../../src/testing/index.js';
import { LEAK_MARKER_VAR } from '../support/leak-scan.js';
import { testEnv } from '../support/processes.js';
import { textInput } from '../support/provider-harness.js';
import { openRealCodex, recordingSink, type HostEnvironment } from '../support/real-codex.js';

const SECRET = 'RELVO_E2E_DB_SECRET';
const SECRET_VALUE = 'canary-secret-5d41402abc4b2a76';
const PLAIN = 'RELVO_E2E_CANARY_PLAIN';
const PLAIN_VALUE = 'canary-plain-7215ee9c7d9dc229';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setHostEnv(vars: Record<string, string>): void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  cleanups.push(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) Reflect.deleteProperty(process.env, k);
      else process.env[k] = v;
    }
  });
}

/** Runs one turn in which the model runs `env`; returns what the command printed. */
async function commandEnvironment(
  environment: (iso: IsolatedCodexHome) => HostEnvironment,
): Promise<string> {
  const codex = await openRealCodex({}, { environment });
  codex.server.enqueue(execCommandStep('env', { callId: 'call_env' }), textStep('done'));
  const run = await codex.session.startRun({
    input: textInput('env'),
    sink: recordingSink(),
    runRef: 'env',
  });
  expect(await run.completion).toEqual({ outcome: 'succeeded' });
  const [, followUp] = await codex.server.waitForRequests(2);
  const out = functionCallOutput(followUp!, 'call_env');
  if (out === undefined) throw new Error('the model got no output for the env command');
  // the command really ran and printed an environment
  expect(out).toMatch(/^PATH=/m);
  return out;
}

describe('environment of the app-server and of the commands it runs', () => {
  it('by default neither a secret nor any other non-allowlisted host variable reaches a command', async () => {
    const out = await commandEnvironment((iso) => {
      // the host's own environment, as a host process would have it
      setHostEnv({
        [SECRET]: SECRET_VALUE,
        [PLAIN]: PLAIN_VALUE,
        HOME: iso.home,
        CODEX_HOME: iso.codexHome,
        [LEAK_MARKER_VAR]: testEnv()[LEAK_MARKER_VAR]!,
      });
      return { inheritEnv: [LEAK_MARKER_VAR] };
    });
    expect(out).not.toContain(SECRET_VALUE);
    expect(out).not.toContain(PLAIN_VALUE);
    // the owner marker of the transport survives both layers
    expect(out).toMatch(/^RELVO_CODEX_OWNER=/m);
  });

  it('a secret the host hands to codex explicitly still stays out of commands', async () => {
    const out = await commandEnvironment((iso) => ({
      env: iso.env(testEnv({ [SECRET]: SECRET_VALUE, [PLAIN]: PLAIN_VALUE })),
    }));
    expect(out).not.toContain(SECRET_VALUE);
    // not a secret-shaped name: the command sees what the host gave codex
    expect(out).toContain(`${PLAIN}=${PLAIN_VALUE}`);
  });

  it("commandEnvironment: 'inherit' is the host's opt-in: the command sees the secret", async () => {
    const out = await commandEnvironment((iso) => ({
      env: iso.env(testEnv({ [SECRET]: SECRET_VALUE })),
      commandEnvironment: 'inherit',
    }));
    expect(out).toContain(`${SECRET}=${SECRET_VALUE}`);
  });
});
