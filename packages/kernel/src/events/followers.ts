// The followers of the log: the parts that read every event after a checkpoint of their own and act
// on it (the projector keeps the read models, the publisher puts the public events on the bus, the
// forgetter makes sure deleted users are forgotten, the webhooks queue deliveries to the endpoints admins registered, the deadlines set and clear the deadlines of
// processes such as an order's payment: command-service/src/deadlines). Named here, below the stores that keep their
// checkpoints and parked events and the contract that shows them to operators.
export const FOLLOWERS = ['projector', 'publisher', 'forgetter', 'webhooks', 'deadlines'] as const;
/** The followers the projector's process runs. */
export const PROJECTOR_FOLLOWERS = ['projector', 'publisher', 'forgetter', 'webhooks'] as const satisfies readonly FollowerName[];
export type FollowerName = (typeof FOLLOWERS)[number];
