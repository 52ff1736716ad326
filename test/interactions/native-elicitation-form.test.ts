/** An MCP server's form elicitation, raised as a question set and answered as typed content. */
import { describe, expect, it } from 'vitest';
import { fakeOffer } from '../support/interaction-frames.js';
import { ADA_FORM_ANSWERS } from '../support/elicitation-frames.js';
import { METHOD, form, harness, raise } from '../support/elicitation-requests.js';

describe('MCP form elicitation → question set', () => {
  it('maps each property to a question kind, the message first, optional ones skippable', () => {
    const { request } = raise(form);
    if (request?.kind !== 'question_set') throw new Error('not a question set');
    const [age, agree, color, name] = request.questions;
    expect(age).toMatchObject({
      key: 'q1',
      prompt: 'The MCP server "elicit" asks: Who are you?\n\nAge (a whole number, at least 0)',
      choices: [{ value: 'skip', label: 'Skip (leave unanswered)' }],
      allowFreeText: true,
    });
    expect(agree?.choices?.map((c) => c.label)).toEqual(['Yes', 'No', 'Skip (leave unanswered)']);
    expect(agree?.allowFreeText).toBe(false);
    expect(color?.choices?.map((c) => c.label)).toEqual([
      'red',
      'green',
      'Skip (leave unanswered)',
    ]);
    expect(name).toMatchObject({
      prompt: 'Name: Your name (at least 1 characters)',
      allowFreeText: true,
    });
    expect(name?.choices).toBeUndefined();
  });

  it('answers become typed content; a skipped property is left out', async () => {
    const r = raise(form);
    await r.registry.respond(r.ref, ADA_FORM_ANSWERS);
    expect(r.log.responded).toEqual([
      { action: 'accept', content: { age: 36, agree: true, name: 'Ada' } },
    ]);
  });

  it('an answer outside the bounds is refused before the settlement is consumed', async () => {
    const r = raise(form);
    const answers = {
      q1: { type: 'text', text: '-1' },
      q2: { type: 'selection', values: ['o2'] },
      q3: { type: 'selection', values: ['o2'] },
      q4: { type: 'text', text: 'Ada' },
    };
    await expect(r.registry.respond(r.ref, { kind: 'question_set', answers })).rejects.toThrow(
      /below_minimum/,
    );
    await r.registry.respond(r.ref, {
      kind: 'question_set',
      answers: { ...answers, q1: { type: 'text', text: '7' } },
    });
    expect(r.log.responded).toEqual([
      { action: 'accept', content: { age: 7, agree: false, color: 'green', name: 'Ada' } },
    ]);
  });

  it.each([
    ['a nested object', { type: 'object', properties: { a: { type: 'object' } } }],
    ['an unknown keyword', { type: 'object', properties: { a: { type: 'string', pattern: 'x' } } }],
    ['no schema object', 'text'],
  ])('a schema with %s is declined with schema_unsupported, never raised', (_, requestedSchema) => {
    const h = harness();
    const { offer, log } = fakeOffer(METHOD, { ...form, requestedSchema });
    h.registry.handleServerRequest(offer);
    expect(h.owner.events).toEqual([]);
    expect(log.rejected).toEqual([
      { code: -32602, message: 'request cannot be represented faithfully (schema_unsupported)' },
    ]);
  });

  it('a retired form is cancelled, exactly once', () => {
    const r = raise(form);
    r.registry.retireRun(r.owner);
    r.registry.retireAll('dispose');
    expect(r.log.responded).toEqual([{ action: 'cancel', content: null }]);
    expect(r.owner.events.map((e) => e.payload.type)).toEqual([
      'interaction.requested',
      'interaction.withdrawn',
    ]);
  });

  it('server text is neutralised: controls removed, URLs and absolute paths replaced', () => {
    const { request } = raise({
      ...form,
      message: 'See \u001b[31mhttps://evil.invalid/x\u0007 and /etc/passwd',
    });
    if (request?.kind !== 'question_set') throw new Error('not a question set');
    const prompt = request.questions[0]?.prompt ?? '';
    expect(prompt).toContain('<url>  and <outside-workspace>');
    expect(prompt).not.toContain('evil.invalid');
    expect(JSON.stringify(request)).not.toContain('\u001b');
  });
});
