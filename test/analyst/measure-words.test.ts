import { describe, expect, it } from 'vitest';
import { reportedDirection, reportNames, wordsOf } from '../../lib/analyst/measure-words.ts';

describe('the words of a measure and of a report about it', () => {
  it('an acronym ends where a capitalised word begins', () => {
    expect([...wordsOf('CPUUtilization')]).toEqual(['cpu', 'utilization']);
    expect(reportNames('Why was reporting-db CPU so high last night?', 'CPUUtilization')).toBe(true);
    expect(reportNames('Why was reporting-db CPU so high last night?', 'FreeableMemory')).toBe(false);
  });

  it('a measure said to be high went up, one said to be low went down', () => {
    expect(reportedDirection('Why was CPU so high around 02:00?')).toBe('up');
    expect(reportedDirection('Why is free storage so low this morning?')).toBe('down');
  });
});
