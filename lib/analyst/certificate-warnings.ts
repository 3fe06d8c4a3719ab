import { causesIn } from './cause-signals.ts';
import type { Signal } from './signals.ts';

/** An alarm or measure counting the days a certificate has left: a warning ahead of its expiry. */
const daysLeftMeasure = /days?.?(to|until|before|till).?expir|expir\w*.?in.?days|days.?(left|remaining)/i;
/** Handshakes failing on a certificate show at once: failures first seen this long after the trouble began are not why it began. */
const LATE_MS = 30 * 60_000;
/** The readings an alarm's reason quotes: `[45.0]`, `[45.0 (20/01/26 00:05:00)]`. */
const quotedReadings = /\[(-?\d+(?:\.\d+)?)/g;

/**
 * Whether what a signal says of a certificate cannot be why the trouble began at `troubleStarts`: a
 * count of days left that has not reached zero (the certificate is still valid), or handshake
 * failures first seen well after that trouble was under way (one remote client's certificate). An
 * expired certificate, or handshakes failing from the trouble's start, can.
 */
export const onlyWarnsOfCertificate = (signal: Signal, troubleStarts: number): boolean => {
  const hits = causesIn(signal.text);
  if (hits.length === 0 || hits.some((hit) => hit.label !== 'certificate')) return false;
  const readings = [...`${signal.text} ${signal.description}`.matchAll(quotedReadings)].map((match) => Number(match[1]));
  if (daysLeftMeasure.test(signal.text) && readings.length > 0 && readings.every((days) => days > 0)) return true;
  return signal.at > troubleStarts + LATE_MS;
};
