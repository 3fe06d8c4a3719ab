import { describe, expect, it } from 'vitest';
import { causesIn } from '../../lib/analyst/cause-signals.ts';

const labels = (text: string) => causesIn(text).map((hit) => hit.label);

describe('a count of none says what did not happen', () => {
  it('names no cause in a field counted zero, and still reads one counted above it', () => {
    expect(labels('upsert batch done: written=40 duplicates=0 errors=0')).not.toContain('bad data');
    expect(labels('upsert batch done: written=40 duplicates=7 errors=0')).toContain('bad data');
    expect(labels('ledger sync finished, mismatch: 0, rows: 1200')).not.toContain('bad data');
    expect(labels('ledger sync finished, mismatch: 12, rows: 1200')).toContain('bad data');
  });
});
