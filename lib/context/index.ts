/**
 * Context budget: keeps what the model reads inside its window. `capToolResult` caps one tool result
 * (log lines keep head, tail, salient middle and a template summary); `fitConversation` turns old
 * results into refetchable stubs when the whole request nears the window.
 */
export { estimateMessageTokens, estimateRequestTokens, estimateTokens } from './token-estimate.ts';
export { capLines, cappedLinesTokens, clipLine, headTailLines, MIN_CAP_TOKENS, type CappedLines, type OmittedTemplate } from './cap-log-lines.ts';
export { capToolResult, renderLogLine, withoutOmissionMarkers, type CappedToolResult } from './cap-tool-result.ts';
export { fitConversation, stubFor, type EvictedResultStub, type FitOptions, type FittedConversation } from './fit-conversation.ts';
export { mentionsFailure, salienceOf, statedSeverity } from './line-salience.ts';
export { budgetShares, selectLines, type Selection, type SelectionRequest } from './line-selection.ts';
