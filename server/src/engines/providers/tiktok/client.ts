import type { Logger } from '../../../platform/logger.ts';
import * as api from './api.ts';
import type { ChunkPlan } from './chunks.ts';
import * as oauth from './oauth.ts';
import { defaultSleep, type Sleep, type TransferBudget } from '../http/runtime.ts';
import type { TikTokRuntime } from './runtime.ts';
import type {
  CreatorInfo,
  DirectPostInfo,
  PostStatus,
  PublishTarget,
  TikTokTokens,
  TikTokUserInfo,
  TikTokVideoStats,
  UploadProgressOptions,
  UploadResult,
  WaitForPublishOptions,
} from './types.ts';
import { uploadChunks } from './upload.ts';

export interface TikTokClientConfig {
  clientKey: string;
  clientSecret: string;
  /** TIKTOK_AUTH_URL, the full authorize page URL, e.g. https://www.tiktok.com/v2/auth/authorize/ */
  authUrl: string;
  /** TIKTOK_API_URL, e.g. https://open.tiktokapis.com */
  apiUrl: string;
  /** TIKTOK_REDIRECT_URI: the default for buildAuthorizeUrl and exchangeCode. */
  redirectUri: string;
  logger: Logger;
  /** Injected in tests so rate-limit waits, backoff and status polls do not really wait. */
  sleep?: Sleep;
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
  disableAutoAuth?: boolean;
}

/** A code from the callback, with the verifier of the flow it belongs to. */
export interface CodeExchange {
  code: string;
  codeVerifier: string;
  /** The authorize request's, when it was not TIKTOK_REDIRECT_URI. */
  redirectUri?: string;
}

export interface TikTokClient {
  buildAuthorizeUrl(request: AuthorizeRequest): string;
  exchangeCode(exchange: CodeExchange, signal?: AbortSignal): Promise<TikTokTokens>;
  refreshToken(refreshToken: string, signal?: AbortSignal): Promise<TikTokTokens>;
  revokeToken(accessToken: string, signal?: AbortSignal): Promise<void>;
  getUserInfo(accessToken: string, signal?: AbortSignal): Promise<TikTokUserInfo>;
  queryCreatorInfo(accessToken: string, signal?: AbortSignal): Promise<CreatorInfo>;
  initDirectPost(accessToken: string, post: DirectPostInfo, plan: ChunkPlan, signal?: AbortSignal): Promise<PublishTarget>;
  initInboxUpload(accessToken: string, plan: ChunkPlan, signal?: AbortSignal): Promise<PublishTarget>;
  uploadChunks(uploadUrl: string, filePath: string, plan: ChunkPlan, options?: UploadProgressOptions): Promise<UploadResult>;
  fetchPostStatus(accessToken: string, publishId: string, signal?: AbortSignal): Promise<PostStatus>;
  waitForPublish(accessToken: string, publishId: string, options?: WaitForPublishOptions): Promise<PostStatus>;
  /** Counts of the account's posts by public post id (video.list); deleted ones are absent. */
  queryVideos(accessToken: string, videoIds: readonly string[], signal?: AbortSignal): Promise<TikTokVideoStats[]>;
}

/**
 * TikTok's official APIs (external-apis.md part B) over plain fetch and configurable base URLs,
 * so the same code runs against production and the test fake. Stateless: tokens are the caller's
 * to store (always the newest refresh token) and to refresh after a token_invalid error.
 */
export function createTikTokClient(config: TikTokClientConfig): TikTokClient {
  const runtime: TikTokRuntime = {
    logger: config.logger.child({ provider: 'tiktok' }),
    sleep: config.sleep ?? defaultSleep,
    now: config.now ?? Date.now,
    transferBudget: config.transferBudget,
  };
  const oauthConfig: oauth.OAuthConfig = { clientKey: config.clientKey, clientSecret: config.clientSecret, apiUrl: config.apiUrl };
  const apiConfig: api.ApiConfig = { apiUrl: config.apiUrl };

  return {
    buildAuthorizeUrl: (request) =>
      oauth.buildAuthorizeUrl({
        authUrl: config.authUrl,
        clientKey: config.clientKey,
        redirectUri: request.redirectUri ?? config.redirectUri,
        state: request.state,
        codeVerifier: request.codeVerifier,
        scopes: request.scopes,
        disableAutoAuth: request.disableAutoAuth,
      }),
    exchangeCode: (exchange, signal) =>
      oauth.exchangeCode(oauthConfig, runtime, { ...exchange, redirectUri: exchange.redirectUri ?? config.redirectUri }, signal),
    refreshToken: (token, signal) => oauth.refreshToken(oauthConfig, runtime, token, signal),
    revokeToken: (accessToken, signal) => oauth.revokeToken(oauthConfig, runtime, accessToken, signal),
    getUserInfo: (accessToken, signal) => api.getUserInfo(apiConfig, runtime, accessToken, signal),
    queryCreatorInfo: (accessToken, signal) => api.queryCreatorInfo(apiConfig, runtime, accessToken, signal),
    initDirectPost: (accessToken, post, plan, signal) => api.initDirectPost(apiConfig, runtime, accessToken, post, plan, signal),
    initInboxUpload: (accessToken, plan, signal) => api.initInboxUpload(apiConfig, runtime, accessToken, plan, signal),
    uploadChunks: (uploadUrl, filePath, plan, options) => uploadChunks(runtime, uploadUrl, filePath, plan, options),
    fetchPostStatus: (accessToken, publishId, signal) => api.fetchPostStatus(apiConfig, runtime, accessToken, publishId, signal),
    waitForPublish: (accessToken, publishId, options) => api.waitForPublish(apiConfig, runtime, accessToken, publishId, options),
    queryVideos: (accessToken, videoIds, signal) => api.queryVideos(apiConfig, runtime, accessToken, videoIds, signal),
  };
}
