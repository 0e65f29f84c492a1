/** Removes what the Docker image never loads from appDir/node_modules; resolves to what it removed. */
export function pruneProduction(appDir: string, options?: { whisperGpu?: '' | 'cuda' | 'vulkan' }): Promise<string[]>;
