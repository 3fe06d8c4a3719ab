/**
 * Quoting moved to lib/text/quote.ts so lib/workflow can use it without importing lib/analyst. This
 * re-export serves signals.ts, health-verdict.ts and infer-cause.ts, which another helper is editing;
 * it goes once their imports point to lib/text/quote.ts.
 */
export { QUOTE_LIMIT, quoteMessage } from '../text/quote.ts';
