/** Words that say how an alarm compares, not what it watches. */
const comparisonWords = new Set(['high', 'low', 'alarm', 'alert', 'rate', 'count', 'sum', 'avg', 'average', 'max', 'min', 'percent', 'too', 'over', 'under', 'above', 'below', 'breach', 'threshold']);

/** The words of a name, singular and lowercase: "store-disk-used-high" and "DiskUsedPercent" share disk and used. */
export const wordsOf = (name: string): Set<string> =>
  new Set(
    name
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      // An acronym ends where a capitalised word begins: "CPUUtilization" is CPU and Utilization.
      .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .map((word) => word.replace(/s$/, ''))
      .filter((word) => word.length >= 3 && !comparisonWords.has(word)),
  );

/** A person's words with hyphenated compounds made one word, as metric names write them ("sign-ups" is SignupsStarted's "signup"). */
const compounded = (text: string): string => text.replace(/(\w)-(\w)/g, '$1$2');

/** Whether a person's report names a measure: they share a word. */
export const reportNames = (report: string, measure: string): boolean => {
  const reported = wordsOf(compounded(report));
  return [...wordsOf(measure)].some((word) => reported.has(word));
};

/** Words by which a person says a measure went down, or up. */
const saysDown = /\b(down|drop(s|ped|ping)?|fell|fall(s|ing)?|fewer|low(er)?|dip(s|ped)?|declin(e|ed|ing)|plummet(ed|ing)?)\b/i;
const saysUp = /\b(up|spik(e|es|ed|ing)|jump(s|ed)?|surg(e|ed|ing)|soar(ed|ing)?|high(er)?|more|ris(e|ing)|rose)\b/i;

/** Which way a person's report says what it names moved; undefined when it says neither, or both. */
export const reportedDirection = (report: string): 'up' | 'down' | undefined => {
  const text = compounded(report);
  const down = saysDown.test(text);
  if (down === saysUp.test(text)) return undefined;
  return down ? 'down' : 'up';
};
