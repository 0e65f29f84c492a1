import type { Logger } from '../../../platform/logger.ts';
import { defaultSleep, type Sleep, type TransferBudget } from '../http/runtime.ts';
import * as api from './api.ts';
import * as oauth from './oauth.ts';
import type { YouTubeRuntime } from './runtime.ts';
import type { ReadChunk, UploadChunksOptions, UploadState, YouTubeChannel, YouTubeTokens, YouTubeVideoMetadata, YouTubeVideoState } from './types.ts';
import { queryUpload, uploadChunks } from './upload.ts';

export interface YouTubeClientConfig {
  clientId: string;
  clientSecret: string;
  /** YOUTUBE_AUTH_URL, e.g. https://accounts.google.com/o/oauth2/v2/auth */
  authUrl: string;
  /** YOUTUBE_TOKEN_URL, e.g. https://oauth2.googleapis.com/token */
  tokenUrl: string;
  /** YOUTUBE_API_URL, e.g. https://www.googleapis.com */
  apiUrl: string;
  /** YOUTUBE_REDIRECT_URI: the default for buildAuthorizeUrl and exchangeCode. */
  redirectUri: string;
  logger: Logger;
  /** Injected in tests so backoff does not really wait. */
  sleep?: Sleep;
  /** The clock behind token expiry times and the quota's reset time. */
  now?: () => number;
  /** The time each video chunk is given (default: 30 s plus its size at about 1 Mbit/s). */
  transferBudget?: TransferBudget;
}

export interface AuthorizeRequest {
  state: string;
  /** The flow's PKCE verifier (http/pkce.ts newCodeVerifier); the same one goes to exchangeCode. */
  codeVerifier: string;
  scopes?: readonly string[];
  redirectUri?: string;
}

/** A code from the callback, with the verifier of the flow it belongs to. */
export interface CodeExchange {
  code: string;
  codeVerifier: string;
  /** The authorize request's, when it was not YOUTUBE_REDIRECT_URI. */
  redirectUri?: string;
}

export interface YouTubeClient {
  buildAuthorizeUrl(request: AuthorizeRequest): string;
  exchangeCode(exchange: CodeExchange, signal?: AbortSignal): Promise<YouTubeTokens>;
  refreshToken(refreshToken: string, signal?: AbortSignal): Promise<YouTubeTokens>;
  getMyChannel(accessToken: string, signal?: AbortSignal): Promise<YouTubeChannel>;
  getVideos(accessToken: string, ids: readonly string[], signal?: AbortSignal): Promise<YouTubeVideoState[]>;
  /** Opens a resumable session; save the URL before sending bytes so a retry resumes it. */
  startUpload(accessToken: string, metadata: YouTubeVideoMetadata, size: number, signal?: AbortSignal): Promise<string>;
  /** Sends the video (a file path, or a reader of byte ranges) and returns the video id. */
  uploadChunks(uploadUrl: string, source: string | ReadChunk, size: number, options?: UploadChunksOptions): Promise<string>;
  queryUpload(uploadUrl: string, size: number, signal?: AbortSignal): Promise<UploadState>;
}

/**
 * The YouTube Data API v3 and Google OAuth over plain fetch and configurable base URLs, so the same
 * code runs against Google and the test fake. Stateless: tokens and upload URLs are the caller's to
 * store, and to refresh after a token_invalid error.
 */
export function createYouTubeClient(config: YouTubeClientConfig): YouTubeClient {
  const runtime: YouTubeRuntime = {
    logger: config.logger.child({ provider: 'youtube' }),
    sleep: config.sleep ?? defaultSleep,
    now: config.now ?? Date.now,
    transferBudget: config.transferBudget,
  };
  const oauthConfig: oauth.OAuthConfig = { clientId: config.clientId, clientSecret: config.clientSecret, tokenUrl: config.tokenUrl };
  const apiConfig: api.ApiConfig = { apiUrl: config.apiUrl };

  return {
    buildAuthorizeUrl: (request) =>
      oauth.buildAuthorizeUrl({
        authUrl: config.authUrl,
        clientId: config.clientId,
        redirectUri: request.redirectUri ?? config.redirectUri,
        state: request.state,
        codeVerifier: request.codeVerifier,
        scopes: request.scopes,
      }),
    exchangeCode: (exchange, signal) =>
      oauth.exchangeCode(oauthConfig, runtime, { ...exchange, redirectUri: exchange.redirectUri ?? config.redirectUri }, signal),
    refreshToken: (token, signal) => oauth.refreshToken(oauthConfig, runtime, token, signal),
    getMyChannel: (accessToken, signal) => api.getMyChannel(apiConfig, runtime, accessToken, signal),
    getVideos: (accessToken, ids, signal) => api.getVideos(apiConfig, runtime, accessToken, ids, signal),
    startUpload: (accessToken, metadata, size, signal) => api.startUpload(apiConfig, runtime, accessToken, metadata, size, signal),
    uploadChunks: (uploadUrl, source, size, options) => uploadChunks(runtime, uploadUrl, source, size, options),
    queryUpload: (uploadUrl, size, signal) => queryUpload(runtime, uploadUrl, size, signal),
  };
}
