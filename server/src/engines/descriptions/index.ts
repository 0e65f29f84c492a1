export type { DescriptionInput } from './types.ts';
export { llmConfigFromEnv, suggestDescriptions } from './suggest.ts';
export { isStopWord } from './stopwords.ts';
