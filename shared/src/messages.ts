/*
 * User-facing words that the server answers with and that a browser must also say before it
 * asks (a busy streamer's Edit, a second subtitle request): one copy for both sides (spec section 8).
 */

export const cannotEditWhileDownloading = (name: string) => `Cannot edit ${name} while clips are being downloaded`;
export const cannotDeleteWhileDownloading = (name: string) => `Cannot delete ${name} while clips are being downloaded`;
export const alreadyDownloading = (name: string) => `Already downloading clips for ${name}`;
export const ALREADY_GENERATING_SUBTITLES = 'Already generating subtitles for clip';
