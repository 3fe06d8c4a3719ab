import { z } from 'zod';

export interface MaskingOptions {
  /** Service names to mask too. By default service names stay: they carry meaning and are not secret. */
  maskServiceNames?: readonly string[];
  /** Extra literal names to mask wherever they stand as a whole token (customer names, project code names). */
  namesToMask?: readonly string[];
  /** Extra detectors: a placeholder type and a JavaScript regex source (compiled without flags). */
  extraPatterns?: readonly { type: string; pattern: string }[];
}

/** Why an extra pattern cannot join the combined scan, or undefined when it can. */
export const extraPatternProblem = (pattern: string): string | undefined => {
  let compiled: RegExp;
  try {
    compiled = new RegExp(pattern);
  } catch (error) {
    return `not a valid regular expression: ${(error as Error).message}`;
  }
  // Inside one alternation a pattern that matches nothing would win at every position and hide
  // every detector after it.
  if (compiled.test('')) return 'matches the empty string';
  // The combined scan names its own groups; a named group here could collide with them.
  if (/\(\?<(?![=!])/.test(pattern)) return 'uses a named group; use (?:...) or a numbered group';
  return undefined;
};

export const maskingOptionsSchema: z.ZodType<MaskingOptions> = z.object({
  maskServiceNames: z.array(z.string().trim().min(1)).readonly().optional(),
  namesToMask: z.array(z.string().trim().min(1)).readonly().optional(),
  extraPatterns: z
    .array(
      z.object({
        type: z.string().trim().min(1),
        pattern: z.string().min(1).superRefine((pattern, context) => {
          const problem = extraPatternProblem(pattern);
          if (problem) context.addIssue({ code: 'custom', message: `extra pattern ${problem}` });
        }),
      }),
    )
    .readonly()
    .optional(),
});

export interface ResolvedMaskingOptions {
  readonly serviceNames: readonly string[];
  readonly names: readonly string[];
  readonly extraPatterns: readonly { type: string; pattern: string }[];
}

const cleanList = (values: readonly string[] | undefined): string[] =>
  [...new Set((values ?? []).map((value) => value.trim()).filter((value) => value !== ''))];

export const resolveMaskingOptions = (options: MaskingOptions = {}): ResolvedMaskingOptions => {
  for (const extra of options.extraPatterns ?? []) {
    const problem = extraPatternProblem(extra.pattern);
    if (problem) throw new Error(`masking extra pattern for ${extra.type} ${problem}`);
  }
  return {
    serviceNames: cleanList(options.maskServiceNames),
    names: cleanList(options.namesToMask),
    extraPatterns: [...(options.extraPatterns ?? [])],
  };
};
