/** TikTok account messages of spec sections 2, 5 and 8 (Settings, the streamer accounts dialog, the wizard). */
export const accountMessages = {
  loadFailed: 'Failed to load TikTok accounts',
  startFailed: 'Failed to start TikTok authorization',
  deleted: 'TikTok account deleted successfully',
  deleteFailed: 'Failed to delete TikTok account',
  emptyTitle: 'No TikTok Accounts',
  emptyDescription: "You haven't connected any TikTok accounts yet.",
  noLinkedStreamers: 'No linked streamers',
  reconnectNeeded: 'Reconnect needed',
} as const;
