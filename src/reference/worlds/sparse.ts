/**
 * The sparse world: a nearly empty workspace, as a new tenant's staging is. Two customers (one known by
 * phone alone), two conversations, a few articles, and pools just big enough for one run of every suite, so
 * every list (customers included) fits on one default page of 25 and the checks that need more data than
 * there is must say so instead of judging.
 */
import type { PoolSizes } from '../pools.js';
import type { SeedShape } from '../seed.js';

/** The default data of a sparse workspace. */
export const SPARSE_SEED_SHAPE: SeedShape = { customers: 2, phoneOnly: 1, conversationStatuses: ['open', 'resolved'], articles: 5 };

/**
 * Pools of a sparse workspace: 12 + 2 + 2 customers, the identity owner and the 2 default ones make 19 (one
 * page). Conversations, chats and collections are not listed, so their pools stay big enough for a run in
 * which some items moved on (the drifting world).
 */
export const SPARSE_POOL_SIZES: PoolSizes = {
  customers: 12,
  conversations: 24,
  pendingTurns: 12,
  collections: 30,
  customerConversations: 2,
  identityCustomers: 2,
};
