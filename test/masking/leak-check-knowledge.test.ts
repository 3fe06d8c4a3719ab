import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Masker } from '../../lib/masking/index.ts';
import { completeThroughGateway } from '../../lib/model/gateway.ts';
import type { ModelPort, ModelRequest } from '../../lib/model/port.ts';
import { accountId, bucketName } from './generators.ts';

/** A model that records what it was sent. */
const recordingModel = (): ModelPort & { seen: ModelRequest[] } => {
  const seen: ModelRequest[] = [];
  return {
    name: 'test:recording',
    seen,
    complete: async (request) => {
      seen.push(request);
      return { text: 'ok', toolCalls: [], usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0 }, stopReason: 'end_turn', model: 'recording' };
    },
  };
};

/** A request whose one tool result holds `lines`, as the workflow sends it (the result JSON as text). */
const requestWithLogLines = (lines: string[], extra: Partial<ModelRequest> = {}): ModelRequest => ({
  system: 'You are an SRE agent.',
  messages: [
    { role: 'user', content: 'Investigate the alarm.' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'query_logs', arguments: { service: 'orders-api' } }] },
    { role: 'tool', toolCallId: 'call_1', name: 'query_logs', content: JSON.stringify({ ref: 'E1', summary: `${lines.length} lines`, data: { lines } }) },
  ],
  tools: [],
  toolChoice: 'auto',
  ...extra,
});

describe('masking knows what the leak check knows (#11)', () => {
  it.each(['svc_reporting2', 'reporting', 'orders-app'])(
    'masks a user learned from user=%s where it stands in the escaped quotes of a JSON document in a log message',
    async (name) => {
      const lines = [
        `2024-01-15 10:15:31 UTC LOG:  connection received: host=10.0.3.17 port=53412 user=${name} database=orders`,
        JSON.stringify({ level: 'error', msg: `password authentication failed for user "${name}"`, code: '28P01' }),
        // A logger that writes JSON its own way (spaces after separators): read as text, not as a document.
        `{"level": "error", "msg": "password authentication failed for user \\"${name}\\""}`,
      ];
      const masker = new Masker();
      const model = recordingModel();
      const original = requestWithLogLines(lines);
      const { request } = await completeThroughGateway(model, masker, original);
      const sent = JSON.stringify(model.seen[0]);
      expect(sent).not.toMatch(new RegExp(`\\b${name}\\b`));
      expect(sent.match(/<USER_1>/g)).toHaveLength(3);
      expect(masker.unmaskJson(request)).toEqual(original);
    },
  );

  it('masks a learned value after a JSON escape, percent-encoded, and with escaped slashes', async () => {
    const masker = new Masker();
    const model = recordingModel();
    masker.mask('user=svc-deploy7 bucket acme-exports-2024 log group /aws/lambda/orders-export');
    await completeThroughGateway(
      model,
      masker,
      requestWithLogLines([
        'upload failed\nsvc-deploy7 retried\tacme-exports-2024',
        'console https://console.example/logs?group=%2Faws%2Flambda%2Forders-export&user=svc-deploy7',
        '{"logGroup": "\\/aws\\/lambda\\/orders-export", "note": "x"}',
      ]),
    );
    const sent = JSON.stringify(model.seen[0]);
    for (const raw of ['svc-deploy7', 'acme-exports-2024', '/aws/lambda/orders-export', '%2Faws%2Flambda%2Forders-export', '\\\\/aws\\\\/lambda']) {
      expect(sent).not.toContain(raw);
    }
  });

  it('masks a value learned anywhere in a request, written in any quoting or escaping anywhere else (property)', () => {
    const userName = fc.tuple(fc.stringMatching(/^[a-z]{3,8}$/), fc.integer({ min: 1, max: 99 })).map(([word, n]) => `svc_${word}${n}`);
    const logGroupName = fc.stringMatching(/^[a-z]{3,8}-[a-z]{3,8}$/).map((name) => `/aws/lambda/${name}`);
    // Where a value is learned: a context the detectors read.
    const learned = fc.oneof(
      userName.map((value) => ({ value, teach: `connection authorized: user=${value} database=orders` })),
      bucketName.map((value) => ({ value, teach: JSON.stringify({ bucketName: value }) })),
      accountId.map((value) => ({ value, teach: `AccountId=${value}&Action=DescribeStacks` })),
      logGroupName.map((value) => ({ value, teach: `log group ${value} is empty` })),
    );
    // How it is written elsewhere: each returns a log line holding it.
    const written = fc.constantFrom(
      (value: string) => JSON.stringify({ level: 'error', msg: `denied for "${value}" again` }),
      (value: string) => JSON.stringify({ outer: JSON.stringify({ inner: `owner '${value}'` }) }),
      (value: string) => `{"msg": "failed for \\"${value}\\" at step 2"}`,
      (value: string) => `see https://console.example/home?q=${encodeURIComponent(value)}&x=1`,
      (value: string) => `first line\nsecond ${value}\tthird`,
      (value: string) => `path ${value.replaceAll('/', '\\/')} done`,
      (value: string) => `'${value}'`,
    );
    const place = fc.constantFrom('system', 'user', 'assistant', 'arguments', 'tool');
    fc.assert(
      fc.property(learned, written, place, fc.boolean(), ({ value, teach }, write, where, teachFirst) => {
        const line = write(value);
        const lines = teachFirst ? [teach, 'filler'] : ['filler', teach];
        const request = requestWithLogLines(lines);
        const embedded: ModelRequest = {
          ...request,
          system: where === 'system' ? `${request.system} ${line}` : request.system,
          messages: [
            { role: 'user', content: where === 'user' ? line : 'Investigate.' },
            {
              role: 'assistant',
              content: where === 'assistant' ? line : '',
              toolCalls: [{ id: 'call_1', name: 'query_logs', arguments: { filter: where === 'arguments' ? line : 'ERROR' } }],
            },
            {
              role: 'tool',
              toolCallId: 'call_1',
              name: 'query_logs',
              content: JSON.stringify({ ref: 'E1', summary: 'lines', data: { lines: where === 'tool' ? [...lines, line] : lines } }),
            },
          ],
        };
        const masker = new Masker();
        const { masked, leaks } = masker.maskJsonForModel(embedded);
        expect(leaks).toEqual([]);
        const sent = JSON.stringify(masked);
        for (const form of [value, encodeURIComponent(value), value.replaceAll('/', '\\\\/')]) expect(sent).not.toContain(form);
      }),
      { numRuns: 400, seed: 1101 },
    );
  });
});
