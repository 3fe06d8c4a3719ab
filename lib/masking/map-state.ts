import { z } from 'zod';

/**
 * The placeholder map as persisted between workflow steps: plain JSON, one entry per raw value.
 * Secrets never appear here; they are redacted, not mapped.
 */
export interface MaskMapState {
  version: 1;
  entries: { placeholder: string; type: string; value: string }[];
}

export const maskMapStateSchema = z.object({
  version: z.literal(1),
  entries: z.array(
    z.object({
      placeholder: z.string().regex(/^<[A-Z][A-Z0-9_]*_[1-9][0-9]*>$/, 'a placeholder is <TYPE_n>'),
      type: z.string().regex(/^[A-Z][A-Z0-9_]*$/),
      value: z.string().min(1),
    }),
  ),
}) satisfies z.ZodType<MaskMapState>;

export const emptyMaskMapState = (): MaskMapState => ({ version: 1, entries: [] });
