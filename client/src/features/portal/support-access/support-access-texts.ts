import { SUPPORT_ACCESS_LIMITS as L, type SupportAccessStatus } from '@shared/portal/support-access';

/** What the support-access pages, the request form and the banner tell people. */
export const SUPPORT_ACCESS_TEXTS = {
  TITLE: 'Support Access',
  INTRO:
    'Requests from E-Support to act as one of your members for up to 60 minutes, to see what they see. Everything done in such a session is in the audit log under both names, and the member is e-mailed when it ends.',
  EMPTY: 'No support-access requests.',
  LOAD_FAILED: 'The support-access requests could not be loaded.',
  COLUMNS: {
    member: 'Member',
    support: 'E-Support',
    reason: 'Reason',
    status: 'Status',
    requested: 'Requested',
    window: 'Lapses / ends',
    actions: 'Actions',
  },
  STATUS: {
    pending: 'Waiting for approval',
    approved: 'Approved',
    active: 'In progress',
    ended: 'Ended',
    expired: 'Lapsed',
    refused: 'Refused',
  } satisfies Record<SupportAccessStatus, string>,
  APPROVE: 'Approve',
  REFUSE: 'Refuse',
  START: 'Start session',
  END: 'End',
  AUDIT: 'Audit log',
  APPROVED: 'Support access approved.',
  REFUSED: 'Support access refused.',
  ENDED: 'Support access ended.',
  ACTION_FAILED: 'That did not work.',
  // The request form (the user list's row menu, E-Support).
  REQUEST_MENU: 'Request support access',
  REQUEST_TITLE: 'Request support access',
  REQUEST_INTRO: (who: string) =>
    `Ask to act as ${who} for up to 60 minutes. Depending on the organisation's policy, a site admin approves it first; the request lapses after 24 hours.`,
  REASON_LABEL: 'Reason (shown to the site admins and the member)',
  REASON_RULE: `Between ${L.REASON_MIN} and ${L.REASON_MAX} characters.`,
  SEND: 'Send request',
  CANCEL: 'Cancel',
  SENT_PENDING: 'Request sent: a site admin of the organisation approves it on the Support access page.',
  SENT_APPROVED: 'Approved by the organisation’s policy: start it on the Support access page.',
  SEND_FAILED: 'The request could not be sent.',
  // The banner of a support-access session.
  BANNER_LABEL: 'Support-access session',
  BANNER: (member: string, until: string) => `You are acting as ${member} until ${until}.`,
  BANNER_REASON: (reason: string) => `Reason: ${reason}`,
  STOP: 'Stop',
  STARTED: 'You are now acting as the member. Stop returns you to your own session.',
} as const;
