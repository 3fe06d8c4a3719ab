import { describe, expect, it } from 'vitest';
import { isRefusedCapacity } from '../../lib/analyst/load-source.ts';
import type { Signal } from '../../lib/analyst/signals.ts';

const signal = (kind: Signal['kind'], text: string, substantial: boolean, count = 2): Signal => ({
  service: 'billing',
  kind,
  at: Date.parse('2026-10-21T14:20:00Z'),
  strength: 0.5,
  count,
  ongoing: true,
  ref: 'E4',
  description: text,
  text,
  substantial,
});

describe('a service refused for want of capacity', () => {
  it('is refused by what it says in lines that count, or by a measure of its throttles', () => {
    expect(isRefusedCapacity([signal('errors', 'emit InvoiceIssued to bus billing-events failed: ThrottlingException: Rate exceeded', true)])).toBe(true);
    expect(isRefusedCapacity([signal('metric', 'ThrottledRequests at billing went up from 0 to 300', false)])).toBe(true);
  });

  it('is not refused by a refused call or two among its lines, but by many, in one kind of line or several', () => {
    const refused = 'tariff read failed: ProvisionedThroughputExceededException: Rate of requests exceeds the allowed throughput';
    expect(isRefusedCapacity([signal('errors', 'emit InvoiceIssued to bus billing-events failed: ThrottlingException: Rate exceeded', false)])).toBe(false);
    expect(isRefusedCapacity([signal('errors', refused, false, 2), signal('errors', `${refused} (retry 2)`, false, 2)])).toBe(true);
    expect(isRefusedCapacity([signal('errors', `${refused}; retrying`, false, 14)])).toBe(true);
  });
});
