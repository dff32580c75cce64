/** What time it is for invitations' expiry: the system's clock, replaced in tests that move time forward. */
export const INVITATION_CLOCK = Symbol('INVITATION_CLOCK');

export interface InvitationClock {
  now(): Date;
}

export const systemInvitationClock: InvitationClock = { now: () => new Date() };
