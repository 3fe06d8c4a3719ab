import { describe, expect, it } from 'vitest';
import { Masker, maskMapStateSchema, maskingOptionsSchema, type MaskMapState } from '../../lib/masking/index.ts';

describe('settings', () => {
  it('accepts valid options and rejects patterns that cannot join the scan', () => {
    expect(maskingOptionsSchema.safeParse({}).success).toBe(true);
    expect(
      maskingOptionsSchema.safeParse({
        maskServiceNames: ['payments'],
        namesToMask: ['Acme Corp'],
        extraPatterns: [{ type: 'customer id', pattern: 'cust_[0-9]{6}' }],
      }).success,
    ).toBe(true);
    expect(maskingOptionsSchema.safeParse({ extraPatterns: [{ type: 'x', pattern: '(' }] }).success).toBe(false);
    expect(maskingOptionsSchema.safeParse({ extraPatterns: [{ type: 'x', pattern: 'a*' }] }).success).toBe(false);
    expect(maskingOptionsSchema.safeParse({ extraPatterns: [{ type: 'x', pattern: '(?<id>x)' }] }).success).toBe(false);
    expect(maskingOptionsSchema.safeParse({ namesToMask: [''] }).success).toBe(false);
    expect(() => new Masker({ extraPatterns: [{ type: 'x', pattern: 'a*' }] })).toThrow(/empty string/);
  });

  it('keeps service names by default and masks the listed ones', () => {
    const text = 'payments-api called orders-api; payments is degraded';
    expect(new Masker().mask(text)).toBe(text);
    expect(new Masker({ maskServiceNames: ['payments-api', 'payments'] }).mask(text)).toBe('<SERVICE_1> called orders-api; <SERVICE_2> is degraded');
  });

  it('masks literal names and extra patterns with their own placeholder types', () => {
    const masker = new Masker({ namesToMask: ['Acme Corp', 'Project Falcon'], extraPatterns: [{ type: 'customer id', pattern: 'cust_[0-9]{6}' }] });
    const text = 'Acme Corp (cust_123456) escalated Project Falcon; cust_123456 again';
    const masked = masker.mask(text);
    expect(masked).toBe('<NAME_1> (<CUSTOMER_ID_1>) escalated <NAME_2>; <CUSTOMER_ID_1> again');
    expect(masker.unmask(masked)).toBe(text);
  });

  it('masks a service name inside a host only as part of the whole host', () => {
    const masker = new Masker({ maskServiceNames: ['orders'] });
    expect(masker.mask('orders at orders.internal')).toBe('<SERVICE_1> at <HOST_1>');
  });
});

describe('state', () => {
  it('is plain JSON, a new object each time, and reloads into the same map', () => {
    const masker = new Masker();
    masker.mask('10.0.0.1 talks to api.example.com as alice@example.com');
    const state = masker.state();
    expect(maskMapStateSchema.parse(JSON.parse(JSON.stringify(state)))).toEqual(state);
    expect(state).toEqual({
      version: 1,
      entries: [
        { placeholder: '<IP_1>', type: 'IP', value: '10.0.0.1' },
        { placeholder: '<HOST_1>', type: 'HOST', value: 'api.example.com' },
        { placeholder: '<EMAIL_1>', type: 'EMAIL', value: 'alice@example.com' },
      ],
    });
    state.entries.length = 0;
    expect(masker.state().entries).toHaveLength(3);

    const next = new Masker({}, JSON.parse(JSON.stringify(masker.state())) as MaskMapState);
    expect(next.mask('10.0.0.2 and 10.0.0.1')).toBe('<IP_2> and <IP_1>');
    expect(next.unmask('<HOST_1>')).toBe('api.example.com');
  });

  it('refuses a corrupt state', () => {
    const entry = { placeholder: '<IP_1>', type: 'IP', value: '10.0.0.1' };
    expect(() => new Masker({}, { version: 1, entries: [entry, { ...entry, value: '10.0.0.2' }] })).toThrow(/duplicate/);
    expect(() => new Masker({}, { version: 1, entries: [{ ...entry, type: 'HOST' }] })).toThrow();
    expect(() => new Masker({}, { version: 2, entries: [] } as unknown as MaskMapState)).toThrow();
  });

  it('continues numbering after a reload, and keeps learned context', () => {
    const masker = new Masker();
    masker.mask('user=svc-deploy at 10.0.0.1');
    const next = new Masker({}, masker.state());
    expect(next.mask('svc-deploy from 10.0.0.9')).toBe('<USER_1> from <IP_2>');
  });
});

describe('JSON values', () => {
  it('masks a deep copy: string values and keys, numbers and booleans left alone', () => {
    const masker = new Masker();
    const input = {
      host: 'api.example.com',
      port: 443,
      healthy: true,
      nothing: null,
      peers: ['10.0.0.1', '10.0.0.2', 7],
      byAddress: { '10.0.0.1': { latencyMs: 12 } },
      accountId: '123456789012',
      ownerId: 123456789012,
      orderId: 123456789012,
    };
    const snapshot = structuredClone(input);
    const masked = masker.maskJson(input);
    expect(input).toEqual(snapshot);
    expect(masked).toEqual({
      host: '<HOST_1>',
      port: 443,
      healthy: true,
      nothing: null,
      peers: ['<IP_1>', '<IP_2>', 7],
      byAddress: { '<IP_1>': { latencyMs: 12 } },
      accountId: '<ACCOUNT_1>',
      // A 12-digit number under an account field is an account id; under any other name it is a number.
      ownerId: '<ACCOUNT_1>',
      orderId: 123456789012,
    });
    expect(masker.unmaskJson(masked)).toEqual({ ...input, ownerId: '123456789012' });
  });

  it('masks a value learned late in the walk everywhere in the object', () => {
    const masker = new Masker();
    const masked = masker.maskJson({ message: 'upload to acme-exports-7 failed', request: { bucketName: 'acme-exports-7' } });
    expect(masked).toEqual({ message: 'upload to <BUCKET_1> failed', request: { bucketName: '<BUCKET_1>' } });
  });

  it('unmasks tool arguments from the model', () => {
    const masker = new Masker();
    masker.mask('instance i-0abc123def4567890 in sg-0123456789abcdef0');
    expect(masker.unmaskJson({ instanceIds: ['<RESOURCE_ID_1>'], filter: { groupId: '<RESOURCE_ID_2>' }, limit: 5 })).toEqual({
      instanceIds: ['i-0abc123def4567890'],
      filter: { groupId: 'sg-0123456789abcdef0' },
      limit: 5,
    });
  });
});

describe('leak check', () => {
  it('reports known raw values and raw secrets, never the values themselves', () => {
    const masker = new Masker();
    masker.mask('db at 10.0.3.17, account 123456789012, user=svc-deploy');
    const leaks = masker.findLeaks('raw 10.0.3.17 and 123456789012 and svc-deploy and password=hunter2 and AKIAIOSFODNN7EXAMPLE');
    expect(leaks).toEqual(
      expect.arrayContaining([
        { type: 'IP', placeholder: '<IP_1>' },
        { type: 'ACCOUNT', placeholder: '<ACCOUNT_1>' },
        { type: 'USER', placeholder: '<USER_1>' },
        { type: 'secret:password' },
        { type: 'secret:aws_access_key_id' },
      ]),
    );
    expect(JSON.stringify(leaks)).not.toMatch(/10\.0\.3\.17|123456789012|svc-deploy|hunter2|AKIA/);
  });

  it('checks a JSON value string by string', () => {
    const masker = new Masker();
    const masked = masker.maskJson({ events: [{ message: 'from 10.0.3.17', detail: { password: 'hunter2' } }] });
    expect(masker.findLeaksJson(masked)).toEqual([]);
    expect(masker.findLeaksJson({ note: 'raw 10.0.3.17', '10.0.3.17': 1, nested: ['token: abc123'] })).toEqual([
      { type: 'IP', placeholder: '<IP_1>' },
      { type: 'secret:token' },
    ]);
  });

  it('does not report identifiers the map has never seen', () => {
    expect(new Masker().findLeaks('10.0.0.1 api.example.com')).toEqual([]);
  });

  it('handles empty text', () => {
    const masker = new Masker();
    expect(masker.mask('')).toBe('');
    expect(masker.unmask('')).toBe('');
    expect(masker.findLeaks('')).toEqual([]);
  });
});
