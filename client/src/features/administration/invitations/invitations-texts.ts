import type { BulkInviteStatus, InvitationStatus } from '@shared/administration/invitations';

/** The invitation page's and the invitations tab's own words. */
export const INVITATION_TEXTS = {
  // The invitation page (/invite)
  PAGE_TITLE: 'Accept your invitation',
  LOADING: 'Reading your invitation…',
  NO_TOKEN:
    'This invitation link is incomplete. Open the link from the invitation e-mail again, or ask the administrator who invited you to send a new one.',
  GO_TO_SIGN_IN: 'Go to sign-in',
  joinTitle: (organisation: string) => `Join ${organisation}`,
  invitedBy: (inviter: string, email: string) => `${inviter} invited you as ${email}.`,
  validUntil: (date: string) => `The invitation is valid until ${date}.`,
  SSO_INTRO: 'Your organisation signs you in through its own provider. Continue there to accept the invitation.',
  SSO_BUTTON: 'Continue with your organisation’s sign-in',
  FIRST_NAME: 'First name',
  LAST_NAME: 'Last name',
  PASSWORD: 'Password',
  CONFIRM_PASSWORD: 'Confirm password',
  ACCEPT: 'Accept invitation',
  NAME_REQUIRED: (label: string) => `${label} is required.`,
  FAILED: 'The invitation could not be accepted. Please try again.',
  // The invitations tab
  TITLE: 'Invitations',
  INTRO:
    'Invite people by e-mail with their role chosen up front. Each link works once; a seat is taken when it is accepted.',
  INVITE_ONE: 'Invite one person',
  EMAIL: 'Email',
  ROLE: 'Role',
  ADMIN_FLAG: 'Also Administrator',
  EXPIRES_IN: 'Valid for (days)',
  SEND: 'Send invitation',
  SENT: 'Invitation sent.',
  UPLOAD: 'Invite many from a CSV file',
  UPLOAD_HINT:
    'A CSV file with the header email,role; the role as a code (ANALYST) or name (Analyst). At most 1,000 rows.',
  CHOOSE_FILE: 'CSV file',
  UPLOADING: 'Sending invitations…',
  uploaded: (invited: number, skipped: number, refused: number) =>
    `${invited} invited, ${skipped} skipped, ${refused} refused.`,
  LIST: 'Sent invitations',
  STATUS_FILTER: 'Status',
  ALL: 'All',
  NONE: 'No invitations.',
  RESEND: 'Resend',
  RESENT: 'A new link has been sent; the previous one no longer works.',
  REVOKE: 'Withdraw',
  REVOKE_TITLE: 'Withdraw invitation',
  revokeQuestion: (email: string) => `Withdraw the invitation of ${email}? Its link will stop working.`,
  REVOKED: 'Invitation withdrawn.',
  seats: (pending: number, free: number | null) =>
    free === null
      ? `${pending} pending invitation(s); no limit on active users.`
      : `${pending} pending invitation(s) against ${free} free seat(s). Pending invitations hold no seat until accepted.`,
  SUPPORT_PICK: 'Choose an organisation to see and send its invitations.',
  FAILED_ACTION: 'That did not work. Please try again.',
} as const;

export const STATUS_LABELS: Record<InvitationStatus, string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  expired: 'Expired',
  revoked: 'Withdrawn',
};

export const BULK_STATUS_LABELS: Record<BulkInviteStatus, string> = {
  invited: 'Invited',
  skipped: 'Skipped',
  refused: 'Refused',
};
