export { budgetExhausted } from './budget.ts';
export { createModelFromConfig, type ModelFactoryDependencies } from './create-model.ts';
export { modelNameOf } from './model-name.ts';
export {
  defaultModels,
  ModelConfigError,
  modelConfigDefaults,
  modelConfigFromEnv,
  modelEnvironment,
  modelEnvironmentVariables,
  modelProviders,
  type ModelBudget,
  type ModelConfig,
  type ModelProviderName,
  type ProviderRef,
  type RemoteProviderName,
} from './model-config.ts';
export { SecretCache, sharedSecretCache, type SecretCacheOptions } from './secrets.ts';
