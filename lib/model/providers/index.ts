export { AnthropicMessagesModel, type AnthropicMessagesModelOptions } from './anthropic-messages.ts';
export { BedrockConverseModel, type BedrockConverseModelOptions } from './bedrock-converse.ts';
export { type AbortableModelPort, type CallOptions } from './conversation.ts';
export {
  classifyAnthropicError,
  classifyBedrockError,
  classifyOpenAIError,
  isModelCallError,
  isTransient,
  ModelCallError,
  modelErrorKinds,
  retryAfterFromHeaders,
  SecretReadError,
  type ModelErrorKind,
} from './errors.ts';
export { OpenAIChatModel, type OpenAIChatModelOptions } from './openai-chat.ts';
