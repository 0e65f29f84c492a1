import type { Logger } from '../../../platform/logger.ts';
import { defaultSleep, type Sleep, type TransferBudget } from '../http/runtime.ts';
import type { MetaRuntime } from '../meta/graph.ts';
import type { ReelStats } from '../meta/types.ts';
import * as api from './api.ts';
import * as oauth from './oauth.ts';
import type { FacebookPage, FacebookUserToken, ReadChunk, ReelMetadata, ReelStatus, ReelUpload, UploadBytesOptions } from './types.ts';
import * as upload from './upload.ts';

export interface FacebookClientConfig {
  appId: string;
  appSecret: string;
  /** FACEBOOK_AUTH_URL, e.g. https://www.facebook.com/v21.0/dialog/oauth */
  authUrl: string;
  /** FACEBOOK_GRAPH_URL, e.g. https://graph.facebook.com/v21.0 */
  graphUrl: string;
  /** FACEBOOK_RUPLOAD_URL, e.g. https://rupload.facebook.com: the one host Page tokens are sent to besides the Graph API. */
  ruploadUrl: string;
  /** FACEBOOK_REDIRECT_URI: the default for buildAuthorizeUrl and exchangeCode. */
  redirectUri: string;
  logger: Logger;
  /** Injected in tests so backoff does not really wait. */
  sleep?: Sleep;
  /** The clock behind token expiry times. */
  now?: () => number;
  /** The time the video's bytes are given (default: 30 s plus its size at about 1 Mbit/s). */
  transferBudget?: TransferBudget;
}

export interface AuthorizeRequest {
  state: string;
  scopes?: readonly string[];
  redirectUri?: string;
}

export interface CodeExchange {
  code: string;
  /** The authorize request's, when it was not FACEBOOK_REDIRECT_URI. */
  redirectUri?: string;
}

export interface FacebookClient {
  buildAuthorizeUrl(request: AuthorizeRequest): string;
  /** The callback's code for a long-lived user token (about 60 days). */
  exchangeCode(exchange: CodeExchange, signal?: AbortSignal): Promise<FacebookUserToken>;
  grantedPermissions(userToken: string, signal?: AbortSignal): Promise<string[]>;
  /** The person's Pages with their Page tokens (which do not expire). */
  listPages(userToken: string, signal?: AbortSignal): Promise<FacebookPage[]>;
  /** Opens a Reel upload; save it before sending bytes so a retry resumes it. */
  startReel(pageToken: string, pageId: string, signal?: AbortSignal): Promise<ReelUpload>;
  /** Sends the video (a file path, or a reader of byte ranges), resuming after breaks from what Facebook reports. */
  uploadBytes(pageToken: string, reel: ReelUpload, source: string | ReadChunk, size: number, options?: UploadBytesOptions): Promise<void>;
  finishReel(pageToken: string, pageId: string, videoId: string, metadata: ReelMetadata, signal?: AbortSignal): Promise<void>;
  reelStatus(pageToken: string, videoId: string, signal?: AbortSignal): Promise<ReelStatus>;
  getInsights(pageToken: string, videoId: string, signal?: AbortSignal): Promise<ReelStats>;
}

/**
 * Facebook Login and Page Reels over plain fetch and configurable base URLs, so the same code runs
 * against Meta and the test fake. Stateless: tokens and video ids are the caller's to store.
 */
export function createFacebookClient(config: FacebookClientConfig): FacebookClient {
  const runtime: MetaRuntime = {
    logger: config.logger.child({ provider: 'facebook' }),
    sleep: config.sleep ?? defaultSleep,
    now: config.now ?? Date.now,
    transferBudget: config.transferBudget,
  };
  const oauthConfig: oauth.OAuthConfig = { appId: config.appId, appSecret: config.appSecret, graphUrl: config.graphUrl };
  const graph = { graphUrl: config.graphUrl, ruploadUrl: config.ruploadUrl };

  return {
    buildAuthorizeUrl: (request) =>
      oauth.buildAuthorizeUrl({ authUrl: config.authUrl, appId: config.appId, redirectUri: request.redirectUri ?? config.redirectUri, state: request.state, scopes: request.scopes }),
    exchangeCode: (exchange, signal) => oauth.exchangeCode(oauthConfig, runtime, { code: exchange.code, redirectUri: exchange.redirectUri ?? config.redirectUri }, signal),
    grantedPermissions: (userToken, signal) => api.grantedPermissions(graph, runtime, userToken, signal),
    listPages: (userToken, signal) => api.listPages(graph, runtime, userToken, signal),
    startReel: (pageToken, pageId, signal) => upload.startReel(graph, runtime, pageToken, pageId, signal),
    uploadBytes: (pageToken, reel, source, size, options) => upload.uploadBytes(graph, runtime, pageToken, reel, source, size, options),
    finishReel: (pageToken, pageId, videoId, metadata, signal) => upload.finishReel(graph, runtime, pageToken, pageId, videoId, metadata, signal),
    reelStatus: (pageToken, videoId, signal) => api.reelStatus(graph, runtime, pageToken, videoId, signal),
    getInsights: (pageToken, videoId, signal) => api.getInsights(graph, runtime, pageToken, videoId, signal),
  };
}
