/** Transcript format, placeholder round trip, and the checked-in transcripts themselves. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sanitizeFrame, serializeTranscript } from '../../scripts/lib/transcript-writer.js';
import {
  parseTranscript,
  restorePlaceholders,
  type PlaceholderValues,
} from '../../src/testing/index.js';
import { CODEX_APP_SERVER_VERSION } from '../../src/constants.js';

const values: PlaceholderValues = {
  workspace: '/tmp/rec-1/workspace',
  home: '/tmp/rec-1/home',
  codexHome: '/tmp/rec-1/home/.codex',
  hostname: 'vm',
};

describe('sanitizeFrame / restorePlaceholders', () => {
  const frame = {
    id: 1,
    result: {
      userAgent: 'relvo/1.2.3 (Debian; x86_64) vm (relvo; 0.1.0)',
      codexHome: '/tmp/rec-1/home/.codex',
      cwd: '/tmp/rec-1/workspace',
      list: ['/tmp/rec-1/home/x', 'vm', 'vmware', 'a vm b'],
      serverName: 'vm',
    },
  };

  it('replaces paths (longest first) and the host name only where it is known to appear', () => {
    expect(sanitizeFrame(frame, values)).toEqual({
      id: 1,
      result: {
        userAgent: 'relvo/1.2.3 (Debian; x86_64) <hostname> (relvo; 0.1.0)',
        codexHome: '<codex_home>',
        cwd: '<workspace>',
        list: ['<home>/x', '<hostname>', 'vmware', 'a vm b'],
        serverName: '<hostname>',
      },
    });
    expect(frame.result.cwd).toBe('/tmp/rec-1/workspace');
  });

  it('round-trips through restorePlaceholders with other host values', () => {
    const other: PlaceholderValues = {
      workspace: '/w',
      home: '/h',
      codexHome: '/h/.c',
      hostname: 'box',
    };
    const restored = restorePlaceholders(sanitizeFrame(frame, values), other);
    expect(restored.result.codexHome).toBe('/h/.c');
    expect(restored.result.list[0]).toBe('/h/x');
    expect(restored.result.serverName).toBe('box');
  });
});

describe('parseTranscript', () => {
  it('accepts what serializeTranscript writes and rejects gaps in seq', () => {
    const text = serializeTranscript([
      { seq: 0, t: 1, dir: 'c2s', frame: { id: 1, method: 'initialize' } },
      { seq: 1, t: 5, dir: 's2c', frame: { id: 1, result: {} } },
    ]);
    expect(parseTranscript(text)).toHaveLength(2);
    expect(() => parseTranscript(text.split('\n')[1]!)).toThrow('seq 1 out of order');
    expect(() => parseTranscript('{"seq":0,"t":0,"dir":"up","frame":{}}')).toThrow(
      'not a transcript line',
    );
  });
});

describe('checked-in transcripts of the baseline', () => {
  const dir = join('fixtures', 'transcripts', CODEX_APP_SERVER_VERSION);
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as {
    scenarios: Record<string, { frames: number }>;
  };

  it('has every scenario, each parseable, with the frame count index.json states', () => {
    expect(files.map((f) => f.replace('.jsonl', '')).sort()).toEqual(
      Object.keys(index.scenarios).sort(),
    );
    for (const file of files) {
      const lines = parseTranscript(readFileSync(join(dir, file), 'utf8'));
      expect(lines.length, file).toBe(index.scenarios[file.replace('.jsonl', '')]!.frames);
    }
  });

  it('leaks no host path or host name', () => {
    for (const file of files) {
      const text = readFileSync(join(dir, file), 'utf8');
      expect(text, file).not.toMatch(/\/tmp\/relvo-rec-/);
      expect(text, file).not.toContain('"serverName":"vm"');
      expect(text, file).not.toContain(process.env.HOME ?? '/root');
    }
  });
});
