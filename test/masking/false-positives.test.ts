import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Masker } from '../../lib/masking/index.ts';

/** Text that looks like identifiers to a careless detector and must reach the model unchanged. */
const untouched: [string, string][] = [
  ['UUIDs', 'request 550e8400-e29b-41d4-a716-446655440000 and 550E8400-E29B-41D4-A716-446655440000 done'],
  ['ISO timestamps', '2024-01-15T10:15:30.123Z 2024-01-15T10:15:30+02:00 2024-01-15 10:15:30,123 Jan 15 10:15:30'],
  ['version strings', 'v1.8.3 2.14.0-rc1 1.2.3.4-beta node v20.19.0 python3.11 TLSv1.2 HTTP/1.1 aws-cli/2.15.10'],
  ['git hashes', 'commit 3f2a9c1 deploy 3f2a9c1e7b4d abcdef0123456789abcdef0123456789abcdef01 deadbeef'],
  ['12-digit order numbers', 'order 123456789012 failed; invoice #987654321098 paid; total 100000000000 items'],
  ['durations', 'took 1500ms, timeout 30s, backoff 2m30s, PT5M, 12.34 ms, 0.001s'],
  ['HTTP status codes', 'HTTP 503 Service Unavailable, 200 OK, 404, 429 Too Many Requests, status=502'],
  ['file names', 'app.js index.ts config.yaml config.yml main.py README.md id_rsa.pub Main.java lib.rs run.sh package.json Dockerfile'],
  ['sentences with periods', 'Connection failed. Retrying in 5 seconds. The service recovered.Done. See the logs.'],
  ['code paths', 'event.detail.id user.id err.code process.env.NODE_ENV response.data.items at com.example.Foo.bar(Foo.java:42)'],
  ['code paths ending in words that are also domains', 'this.state.events item.data time.now router.map self.app com.example.Foo.bar'],
  ['clock times and ratios', '10:15:30 1:2 3:4:5 99.9% p99=250ms cpu=85.5'],
  ['loopback and metadata addresses', 'listening on 0.0.0.0:8080, connect to 127.0.0.1:5432 refused, IMDS 169.254.169.254, [::1]:3000'],
  ['AWS service endpoints', 'eventSource ec2.amazonaws.com, sts.amazonaws.com, logs.us-east-1.amazonaws.com, https://console.aws.amazon.com/'],
  ['AWS managed policy ARNs', 'attached arn:aws:iam::aws:policy/ReadOnlyAccess'],
  ['service names', 'orders-api called payments-service via http://inventory:8080/health'],
  ['pagination and token counts', 'nextToken=AAAAAQ== max_tokens: 4096 input_tokens=1200 "NextToken": "eyJ2IjoxfQ"'],
];

describe('false positives', () => {
  for (const [kind, text] of untouched) {
    it(`leaves ${kind} alone`, () => {
      const masker = new Masker();
      expect(masker.mask(text)).toBe(text);
      expect(masker.state().entries).toEqual([]);
    });
  }

  it('keeps a 12-digit order number, but masks the same digits after an account field', () => {
    const masker = new Masker();
    expect(masker.mask('order 123456789012 failed')).toBe('order 123456789012 failed');
    expect(masker.mask('accountId=210987654321')).toBe('accountId=<ACCOUNT_1>');
  });

  it('masks a UUID whole or not at all, whatever surrounds it', () => {
    const hex = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });
    const uuid = fc.tuple(hex(8), hex(4), hex(4), hex(4), hex(12)).map((parts) => parts.join('-'));
    const around = fc.constantFrom('', ' ', 'id=', '"requestId": "', 'account ', 'arn:aws:acm:us-east-1:123456789012:certificate/', 'RequestId: ', '/');
    fc.assert(
      fc.property(uuid, around, fc.constantFrom('', ' ', '"', '.', '\n'), (value, before, after) => {
        const masker = new Masker();
        const masked = masker.mask(`${before}${value}${after}`);
        const kept = masked.includes(value);
        const pieces = value.split('-');
        // Either the whole UUID is still there, or no piece of it is.
        if (!kept) for (const piece of pieces) expect(masked).not.toContain(piece);
        expect(masker.unmask(masked)).toBe(`${before}${value}${after}`);
      }),
      { numRuns: 300 },
    );
  });

  it('does not take a host name out of a file name or a sentence end', () => {
    const masker = new Masker();
    expect(masker.mask('see api.example.com. Then app.js failed')).toBe('see <HOST_1>. Then app.js failed');
    expect(masker.mask('/etc/nginx/sites/example.com.conf')).toBe('/etc/nginx/sites/example.com.conf');
  });
});
