export { createChatCompletion, LlmError } from './client.ts';
export type { ChatMessage, ChatResult } from './client.ts';
export type { Sleep } from '../http/runtime.ts';
