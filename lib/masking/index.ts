/**
 * The masking layer: every model request passes `Masker.mask`/`maskJson`, every tool argument from
 * the model passes `unmask`/`unmaskJson`, and `findLeaks` is the last check before a request leaves.
 */
export { Masker, type Leak } from './masker.ts';
export { maskingOptionsSchema, type MaskingOptions } from './options.ts';
export { maskMapStateSchema, emptyMaskMapState, type MaskMapState } from './map-state.ts';
export { PlaceholderType, type BuiltInPlaceholderType, redactionMarker, REDACTION_PREFIX } from './placeholders.ts';
