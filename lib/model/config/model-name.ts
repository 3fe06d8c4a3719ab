import { defaultModels, type ModelConfig } from './model-config.ts';

/**
 * The name the configured model port reports (`openai:gpt-4o`, a fallback chain joined with `>`),
 * known without building the model or reading its secret.
 */
export const modelNameOf = (config: ModelConfig): string => {
  if (config.provider === 'offline') return 'offline-analyst';
  const primary = `${config.provider}:${config.model ?? defaultModels[config.provider] ?? 'unset'}`;
  return [primary, ...config.fallbacks.map((ref) => `${ref.provider}:${ref.model}`)].join('>');
};
