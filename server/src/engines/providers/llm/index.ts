export { chatCompletionsUrl, createChatCompletion, DEFAULT_TIMEOUT_MS, LlmError } from './client.ts';
export type { ChatClientConfig, ChatMessage, ChatRequest, ChatResult, LlmErrorKind } from './client.ts';
export type { Sleep } from '../http/runtime.ts';
