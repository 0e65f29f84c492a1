import type { Logger } from '../../../platform/logger.ts';
import { defaultSleep, type Sleep } from '../http/runtime.ts';
import type { MetaRuntime } from '../meta/graph.ts';
import type { ReelStats } from '../meta/types.ts';
import * as api from './api.ts';
import * as containers from './containers.ts';
import * as oauth from './oauth.ts';
import type {
  ContainerState,
  InstagramRefreshedToken,
  InstagramTokens,
  InstagramUser,
  PublishingLimit,
  ReelContainerRequest,
  WaitForContainerOptions,
} from './types.ts';

export interface InstagramClientConfig {
  clientId: string;
  clientSecret: string;
  /** INSTAGRAM_AUTH_URL, e.g. https://www.instagram.com/oauth/authorize */
  authUrl: string;
  /** INSTAGRAM_TOKEN_URL, e.g. https://api.instagram.com/oauth/access_token */
  tokenUrl: string;
  /** INSTAGRAM_GRAPH_URL, e.g. https://graph.instagram.com */
  graphUrl: string;
  /** INSTAGRAM_REDIRECT_URI: the default for buildAuthorizeUrl and exchangeCode. */
  redirectUri: string;
  logger: Logger;
  /** Injected in tests so backoff and container polling do not really wait. */
  sleep?: Sleep;
  /** The clock behind token expiry times and the polling budget. */
  now?: () => number;
}

export interface AuthorizeRequest {
  state: string;
  scopes?: readonly string[];
  redirectUri?: string;
}

export interface CodeExchange {
  code: string;
  /** The authorize request's, when it was not INSTAGRAM_REDIRECT_URI. */
  redirectUri?: string;
}

export interface InstagramClient {
  buildAuthorizeUrl(request: AuthorizeRequest): string;
  /** The callback's code for a long-lived token (60 days) and who signed in. */
  exchangeCode(exchange: CodeExchange, signal?: AbortSignal): Promise<InstagramTokens>;
  /** A live long-lived token for a new one; an expired or revoked one answers reconnect_required. */
  refreshToken(token: string, signal?: AbortSignal): Promise<InstagramRefreshedToken>;
  getMe(token: string, signal?: AbortSignal): Promise<InstagramUser>;
  createReelContainer(token: string, igUserId: string, request: ReelContainerRequest, signal?: AbortSignal): Promise<string>;
  containerStatus(token: string, containerId: string, signal?: AbortSignal): Promise<ContainerState>;
  /** Polls until FINISHED; ERROR, EXPIRED, PUBLISHED and an exhausted budget throw. */
  waitForContainer(token: string, containerId: string, options?: WaitForContainerOptions): Promise<ContainerState>;
  /** The new media id; a container published before throws already_published. */
  publishContainer(token: string, igUserId: string, containerId: string, signal?: AbortSignal): Promise<string>;
  publishingLimit(token: string, igUserId: string, signal?: AbortSignal): Promise<PublishingLimit>;
  getInsights(token: string, mediaId: string, signal?: AbortSignal): Promise<ReelStats>;
}

/**
 * The Instagram API with Instagram Login over plain fetch and configurable base URLs, so the same
 * code runs against Meta and the test fake. Stateless: tokens and container ids are the caller's
 * to store.
 */
export function createInstagramClient(config: InstagramClientConfig): InstagramClient {
  const runtime: MetaRuntime = {
    logger: config.logger.child({ provider: 'instagram' }),
    sleep: config.sleep ?? defaultSleep,
    now: config.now ?? Date.now,
  };
  const oauthConfig: oauth.OAuthConfig = { clientId: config.clientId, clientSecret: config.clientSecret, tokenUrl: config.tokenUrl, graphUrl: config.graphUrl };
  const graph = { graphUrl: config.graphUrl };

  return {
    buildAuthorizeUrl: (request) =>
      oauth.buildAuthorizeUrl({ authUrl: config.authUrl, clientId: config.clientId, redirectUri: request.redirectUri ?? config.redirectUri, state: request.state, scopes: request.scopes }),
    exchangeCode: (exchange, signal) => oauth.exchangeCode(oauthConfig, runtime, { code: exchange.code, redirectUri: exchange.redirectUri ?? config.redirectUri }, signal),
    refreshToken: (token, signal) => oauth.refreshToken(oauthConfig, runtime, token, signal),
    getMe: (token, signal) => api.getMe(graph, runtime, token, signal),
    createReelContainer: (token, igUserId, request, signal) => containers.createReelContainer(graph, runtime, token, igUserId, request, signal),
    containerStatus: (token, containerId, signal) => containers.containerStatus(graph, runtime, token, containerId, signal),
    waitForContainer: (token, containerId, options) => containers.waitForContainer(graph, runtime, token, containerId, options),
    publishContainer: (token, igUserId, containerId, signal) => containers.publishContainer(graph, runtime, token, igUserId, containerId, signal),
    publishingLimit: (token, igUserId, signal) => api.publishingLimit(graph, runtime, token, igUserId, signal),
    getInsights: (token, mediaId, signal) => api.getInsights(graph, runtime, token, mediaId, signal),
  };
}
