import { describe, expect, it } from 'vitest';
import { mineTemplates, severityOf, templateOf, type LogLine } from '../../lib/analysis/log-templates.ts';

const line = (t: number, message: string, level = 'ERROR', service = 'order-service'): LogLine => ({ t, level, message, service });

describe('templateOf', () => {
  it.each([
    ['Payment failed for order ord-12345: upstream timeout after 3000ms', 'Payment failed for order <*>: upstream timeout after <*>'],
    ['Request 3f2b8a1c-9d4e-4f6a-8b2c-1d2e3f4a5b6c took 1.52s', 'Request <*> took <*>'],
    ['Connection refused to 10.0.12.7:5432 (attempt 3/5)', 'Connection refused to <*> (attempt <*>)'],
    ['GET /api/orders/98231/items returned 503 in 250ms', 'GET /api/orders/<*>/items returned <*> in <*>'],
    ["Can't connect to 'orders-db'", "Can't connect to <*>"],
    ['Table "orders" not found', 'Table <*> not found'],
    ['gc at 2026-04-06T04:00:10.123Z freed 0x7ffd1234', 'gc at <*> freed <*>'],
    ['{"msg":"charge failed","amount":12.5}', '{"msg":"charge failed","amount":<*>}'],
  ])('masks the variables in %s', (message, template) => {
    expect(templateOf(message)).toBe(template);
  });
});

describe('mineTemplates', () => {
  it('merges lines that differ only in their variables', () => {
    const templates = mineTemplates([
      line(3, 'Timeout calling inventory-service after 3000ms (request 7f1c2b3a-1111-4a2b-8c3d-000000000001)'),
      line(1, 'Timeout calling inventory-service after 2950ms (request 7f1c2b3a-1111-4a2b-8c3d-000000000002)'),
      line(2, 'Timeout calling inventory-service after 3100ms (request 7f1c2b3a-1111-4a2b-8c3d-000000000003)', 'error', 'web'),
    ]);
    expect(templates).toHaveLength(1);
    expect(templates[0]).toEqual({
      template: 'Timeout calling inventory-service after <*> (request <*>)',
      count: 3,
      firstSeen: 1,
      lastSeen: 3,
      levels: { ERROR: 3 },
      services: ['order-service', 'web'],
      example: 'Timeout calling inventory-service after 2950ms (request 7f1c2b3a-1111-4a2b-8c3d-000000000002)',
    });
  });

  it('keeps different messages apart, most frequent first', () => {
    const templates = mineTemplates([
      line(1, 'Connection reset by peer'),
      line(2, 'Connection refused'),
      line(3, 'Connection refused'),
      line(4, 'Connection timed out'),
    ]);
    expect(templates.map((template) => [template.template, template.count])).toEqual([
      ['Connection refused', 2],
      ['Connection reset by peer', 1],
      ['Connection timed out', 1],
    ]);
  });

  it('normalises levels', () => {
    const [template] = mineTemplates([
      line(1, 'disk almost full', 'warning'),
      line(2, 'disk almost full', 'WARN'),
      line(3, 'disk almost full', ' Err '),
      line(4, 'disk almost full', ''),
    ]);
    expect(template!.levels).toEqual({ WARN: 2, ERROR: 1, UNKNOWN: 1 });
  });

  it('returns nothing for no lines', () => {
    expect(mineTemplates([])).toEqual([]);
  });
});

describe('severityOf', () => {
  it.each([
    ['trace', 0],
    ['DEBUG', 0],
    ['info', 1],
    ['Warning', 2],
    ['WARN', 2],
    ['err', 3],
    ['ERROR', 3],
    ['fatal', 4],
    ['CRIT', 4],
    ['critical', 4],
    ['panic', 4],
    ['emergency', 4],
    ['alert', 4],
    ['verbose-ish', 1],
  ])('%s is %i', (level, severity) => {
    expect(severityOf(level)).toBe(severity);
  });
});
