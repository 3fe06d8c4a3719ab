import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QUOTE_LIMIT, quoteMessage } from '../../lib/text/quote.ts';

const word = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 1, maxLength: 12 });
const words = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max }).map((list) => list.join(' '));
/** Text made of the pieces the quoting looks for: named errors, frames, JSON, logger prefixes, digests. */
const logLike = fc
  .array(
    fc.oneof(
      word,
      fc.constantFrom('TypeError:', 'com.acme.FooException:', 'Error:', '\n\tat a.B.c(B.java:1)', '\n    at f (/a.js:1:2)', '{"msg":"x","error":"y"}', '[main]', 'c.a.Foo :', '2026-05-01T10:00:00Z', 'ERROR', '(Request ID: 1)', 'Traceback (most recent call last):', '\n  File "a.py", line 1, in f', '{', '}', '"', '\uD83D\uDE00'),
    ),
    { maxLength: 120 },
  )
  .map((pieces) => pieces.join(' '));

describe('quoteMessage: properties', () => {
  it('is never longer than the limit, and never empty for a message with something in it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 600 }), logLike), fc.integer({ min: 24, max: 300 }), (text, limit) => {
        const quoted = quoteMessage(text, limit);
        expect(quoted.length).toBeLessThanOrEqual(limit);
        if (/\S/.test(text)) expect(quoted.trim()).not.toBe('');
      }),
      { numRuns: 500 },
    );
  });

  it('is on one line and never splits a character in two', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 400 }), logLike), (text) => {
        const quoted = quoteMessage(text, 60);
        expect(quoted).not.toMatch(/[\r\n\t]/);
        // encodeURIComponent refuses a lone surrogate, half of a character.
        expect(() => encodeURIComponent(quoted)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it('leaves a message that fits as it is, apart from its whitespace', () => {
    fc.assert(
      fc.property(words(1, 12), (message) => {
        fc.pre(message.length <= QUOTE_LIMIT);
        expect(quoteMessage(message)).toBe(message);
        expect(quoteMessage(`  ${message.replaceAll(' ', '\n\t')} `)).toBe(message);
      }),
    );
  });

  it('keeps the last clause of a long message, and its opening', () => {
    fc.assert(
      fc.property(words(1, 3), words(30, 60), words(1, 8), (opening, middle, lastClause) => {
        fc.pre(lastClause.length <= 60);
        const message = `${opening} failed: ${middle}: ${lastClause}`;
        fc.pre(message.length > QUOTE_LIMIT);
        const quoted = quoteMessage(message);
        expect(quoted.endsWith(lastClause)).toBe(true);
        expect(quoted.startsWith(`${opening} failed:`)).toBe(true);
        expect(quoted).toContain(' … ');
      }),
    );
  });

  it('keeps a named error (where the cause starts) with what follows it, and the opening', () => {
    const errorName = fc.constantFrom('KMSDisabledException', 'TypeError', 'NullPointerException', 'ServiceFault');
    fc.assert(
      fc.property(words(2, 4), words(30, 60), errorName, words(1, 6), (opening, middle, name, why) => {
        const message = `${opening} failed: ${middle}: com.acme.client.${name}: ${why}`;
        fc.pre(message.length > QUOTE_LIMIT);
        const quoted = quoteMessage(message);
        expect(quoted.endsWith(`${name}: ${why}`)).toBe(true);
        expect(quoted.startsWith(`${opening} failed:`)).toBe(true);
        expect(quoted.length).toBeLessThanOrEqual(QUOTE_LIMIT);
      }),
    );
  });

  it('refuses a limit too small to hold an opening and an ending', () => {
    expect(() => quoteMessage('anything', 10)).toThrow(/at least 24/);
    expect(() => quoteMessage('anything', 80.5)).toThrow(/whole number/);
  });
});

describe('quoteMessage: what a long log line is cut down to', () => {
  it('Java/Spring: the thread, the logger and the stack frames go; what failed and why stay', () => {
    const line = [
      '[http-nio-8080-exec-19] c.a.inventory.web.ReservationController : POST /v1/reservations failed for order ord_34kqkd9hch: org.springframework.jdbc.BadSqlGrammarException: PreparedStatementCallback; bad SQL grammar [INSERT INTO reservations (order_id, sku, qty, warehouse_zone, expires_at) VALUES (?, ?, ?, ?, ?)]; nested exception is org.postgresql.util.PSQLException: ERROR: column "warehouse_zone" of relation "reservations" does not exist',
      '\tat org.springframework.jdbc.support.SQLStateSQLExceptionTranslator.doTranslate(SQLStateSQLExceptionTranslator.java:103)',
      '\tat com.acme.inventory.reservation.ReservationRepository.insert(ReservationRepository.java:88)',
      '\tat java.base/java.lang.Thread.run(Thread.java:1583)',
      '\t... 42 more',
    ].join('\n');
    const quoted = quoteMessage(line);
    expect(quoted).toMatch(/^POST \/v1\/reservations failed for order ord_34kqkd9hch: /);
    expect(quoted).toMatch(/column "warehouse_zone" of relation "reservations" does not exist$/);
    expect(quoted).not.toContain('http-nio');
    expect(quoted).not.toContain('ReservationController');
  });

  it('Spring Boot\'s full line: timestamp, level, process id, thread and logger all go', () => {
    const line =
      '2026-03-10 14:12:12.004  ERROR 1 --- [nio-8080-exec-1] c.a.payments.PaymentService : charge ch_91 for order ord_7 failed after 3 attempts while calling the card network: java.net.SocketTimeoutException: Read timed out';
    expect(quoteMessage(line)).toBe('charge ch_91 for order ord_7 failed after 3 attempts while calling the card network: java.net.SocketTimeoutException: Read timed out');
  });

  it('Python: a traceback is quoted by its message and its last line, the exception, not by its frames', () => {
    const line = [
      'ERROR:worker.billing:invoice run 2231 failed for tenant acme-logistics after processing 1200 of 4000 invoices',
      'Traceback (most recent call last):',
      '  File "/app/worker/billing.py", line 88, in run',
      '    totals = compute_totals(batch)',
      '  File "/app/worker/totals.py", line 41, in compute_totals',
      '    rate = rates[invoice.currency]',
      "KeyError: 'CHF' (no exchange rate loaded for currency)",
    ].join('\n');
    const quoted = quoteMessage(line);
    expect(quoted).toMatch(/^invoice run 2231 failed for tenant acme-logistics/);
    expect(quoted).toMatch(/KeyError: 'CHF' \(no exchange rate loaded for currency\)$/);
    expect(quoted).not.toMatch(/File "|Traceback|ERROR:worker/);
  });

  it('Node: an Error with its stack and its printed properties is quoted by its message', () => {
    const line = [
      'payment request for order ord_5512 to the payments service failed: Error: getaddrinfo ENOTFOUND payments.svc.internal',
      '    at GetAddrInfoReqWrap.onlookup [as oncomplete] (node:dns:107:26) {',
      '  errno: -3008,',
      "  code: 'ENOTFOUND',",
      "  syscall: 'getaddrinfo',",
      "  hostname: 'payments.svc.internal'",
      '}',
    ].join('\n');
    expect(quoteMessage(line)).toBe('payment request for order ord_5512 to the payments service failed: Error: getaddrinfo ENOTFOUND payments.svc.internal');
  });

  it('Node: frames written on the message\'s own line go too', () => {
    const line =
      'failed to build receipt ride=R-7140553 messageId=5ad0b26a-703f-426e-ab10-167a6b94ad6a ApproximateReceiveCount=3: TypeError: Cannot read properties of undefined (reading \'amountMinor\') at formatTotal (receipt.js:88) at render (/var/task/dist/receipt.js:41:17)';
    const quoted = quoteMessage(line);
    expect(quoted).toMatch(/^failed to build receipt ride=R-7140553 /);
    expect(quoted).toMatch(/TypeError: Cannot read properties of undefined \(reading 'amountMinor'\)$/);
  });

  it('Go: a panic is quoted by its message, not by the goroutine dump', () => {
    const line = [
      'panic: runtime error: invalid memory address or nil pointer dereference while decoding shipment event batch 7781 from partner feed',
      '[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x4a3f2c]',
      '',
      'goroutine 41 [running]:',
      'main.(*Decoder).Decode(0xc000126000, {0xc0001a4000, 0x2a, 0x30})',
      '\t/app/decoder.go:57 +0x2c',
      'main.handle(0xc000010018)',
      '\t/app/main.go:112 +0x1b5',
      'created by main.serve in goroutine 1',
      '\t/app/main.go:80 +0x9d',
    ].join('\n');
    const quoted = quoteMessage(line);
    expect(quoted).toMatch(/^panic: runtime error: invalid memory address or nil pointer dereference/);
    expect(quoted).not.toMatch(/goroutine|\.go:\d+|Decode\(0x/);
  });

  it('C#: `at ... in file:line N` frames go', () => {
    const line = [
      'Unhandled exception while settling payout batch 5521 for merchant m_2291 with the acquirer: System.TimeoutException: The operation has timed out after 30 seconds waiting for the acquirer',
      '   at Acme.Payouts.AcquirerClient.SettleAsync(PayoutBatch batch) in /src/Payouts/AcquirerClient.cs:line 118',
      '   at Acme.Payouts.Worker.RunAsync(CancellationToken token) in /src/Payouts/Worker.cs:line 42',
    ].join('\n');
    expect(quoteMessage(line)).toMatch(/timed out after 30 seconds waiting for the acquirer$/);
  });

  it('a line of the message that starts with "at" but names no place in the code is kept', () => {
    const line = [
      'nightly export of 18 tenants to the data lake stopped after the warehouse refused the connection',
      'at least 3 tenants (acme, globex, initech) were not exported (their files are missing from s3://lake/exports)',
    ].join('\n');
    expect(quoteMessage(line)).toMatch(/their files are missing from s3:\/\/lake\/exports\)$/);
  });

  it('a JSON line is quoted by its error type and message fields', () => {
    const line = JSON.stringify({
      timestamp: '2026-05-01T10:00:00.123Z',
      level: 'error',
      service: 'ledger-writer',
      requestId: 'c0a8f2d4-5b1e-4e0f-9d6a-2f3c4b5a6e7d',
      msg: 'ledger batch write failed',
      error: { type: 'ConditionalCheckFailedException', message: 'The conditional request failed', code: 400 },
      durationMs: 4312,
    });
    expect(quoteMessage(line)).toBe('ledger batch write failed: ConditionalCheckFailedException: The conditional request failed');
  });

  it('a Lambda runtime line: the request id and level go, the JSON error after them is read', () => {
    const line =
      '2b16349d-692d-4ccb-8a17-197fe1ac2db4\tERROR\tInvoke Error \t{"errorType": "SyntaxError", "errorMessage": "Unexpected end of JSON input", "stack": ["SyntaxError: Unexpected end of JSON input", "    at JSON.parse (<anonymous>)", "    at decodeReading (/var/task/dist/decode.js:27:21)"]}';
    expect(quoteMessage(line)).toBe('Invoke Error: SyntaxError: Unexpected end of JSON input');
  });

  it('a JSON object without message fields is kept, its middle elided', () => {
    const line = JSON.stringify({ action: 'BLOCK', terminatingRuleId: 'AWSManagedRulesSQLiRuleSet', httpRequest: { clientIp: '198.51.100.38', country: 'US', uri: '/api/shipments', httpMethod: 'GET' }, labels: [{ name: 'awswaf:managed:aws:sqli:SQLi_QUERYARGUMENTS' }] });
    const quoted = quoteMessage(line);
    expect(quoted).toMatch(/^\{"action":"BLOCK"/);
    expect(quoted).toMatch(/SQLi_QUERYARGUMENTS"\}\]\}$/);
  });

  it('an AWS SDK request-id trailer goes, the reason before it stays', () => {
    const line =
      'ReceiveMessage on refill-requests failed: KmsAccessDeniedException: User: arn:aws:sts::109384576220:assumed-role/refill-processor-task/2d9d6283 is not authorized to perform: kms:Decrypt on resource: arn:aws:kms:ca-central-1:109384576220:key/7d2e91c4 because no resource-based policy allows the kms:Decrypt action (Service: Sqs, Status Code: 400, Request ID: 0c243764-e863-4994-88b6-78f82f967e3a)';
    expect(quoteMessage(line)).toMatch(/^ReceiveMessage on refill-requests failed: .* because no resource-based policy allows the kms:Decrypt action$/);
  });

  it('a long message whose prefix is all there is keeps its prefix', () => {
    const line = `[http-nio-8080-exec-19] ${'1234567890 '.repeat(20)}`;
    expect(quoteMessage(line)).toMatch(/^\[http-nio-8080-exec-19\] 1234567890/);
  });

  it('a long message with no space in it is cut in the middle all the same', () => {
    const line = `${'a'.repeat(100)}${'b'.repeat(100)}`;
    expect(quoteMessage(line)).toMatch(/^a+ … b+$/);
    expect(quoteMessage(line).length).toBeLessThanOrEqual(QUOTE_LIMIT);
  });
});
