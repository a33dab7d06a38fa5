// The followers of the log: the parts that read every event after a checkpoint of their own and act
// on it (the projector keeps the read models, the publisher puts the public events on the bus, the
// forgetter makes sure deleted users are forgotten). Named here, below the stores that keep their
// checkpoints and parked events and the contract that shows them to operators.
export const FOLLOWERS = ['projector', 'publisher', 'forgetter'] as const;
export type FollowerName = (typeof FOLLOWERS)[number];
