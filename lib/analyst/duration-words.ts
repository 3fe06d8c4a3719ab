/** A length of time as it is written beside its unit (`57321ms`, `5 s`, `5000 milliseconds`), in seconds; no unit reads as seconds. */
export const inSeconds = (value: string, unit: string | undefined): number => (unit && /^m/i.test(unit) ? Number(value) / 1000 : Number(value));
