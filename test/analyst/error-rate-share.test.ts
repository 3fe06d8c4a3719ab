import { describe, expect, it } from 'vitest';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { at, boardFrom, series, step } from './board-builder.ts';

const START = '2026-08-03T09:00:00.000Z';

/** A distribution serving about 9,000 requests a minute whose errors, from minute 60, are `errorsAfter` in the named measure. */
const edge = (errorMeasure: string, errorsAfter: number, unit?: string) =>
  boardFrom({
    services: [{ name: 'web-edge', kind: 'cloudfront' }],
    metrics: [
      { service: 'web-edge', name: 'Requests', stat: 'Sum', periodSeconds: 60, points: series(START, 90, () => 9000) },
      { service: 'web-edge', name: errorMeasure, periodSeconds: 60, ...(unit ? { unit } : {}), points: series(START, 90, step(60, 0.05, errorsAfter)) },
    ],
  });

const errorShift = (board: ReturnType<typeof edge>, name: string) => collectSignals(board).find((signal) => signal.service === 'web-edge' && signal.text.startsWith(name));

describe('a server error rate is already a share of the requests', () => {
  it('is substantial when it rises to a large share, though its figure is small beside the request count', () => {
    expect(errorShift(edge('5xxErrorRate', 40), '5xxErrorRate')?.substantial).toBe(true);
    expect(errorShift(edge('OriginErrors', 40, 'Percent'), 'OriginErrors')?.substantial).toBe(true);
  });

  it('while a count of errors, and a client error rate, are still measured against the requests', () => {
    expect(errorShift(edge('5xxErrors', 40), '5xxErrors')?.substantial).toBe(false);
    expect(errorShift(edge('4xxErrorRate', 40), '4xxErrorRate')?.substantial).toBe(false);
  });
});
