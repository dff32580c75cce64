/** What the "Your data" part of My Security tells people (docs/privacy.md). */
export const PRIVACY_TEXTS = {
  TITLE: 'Your data',
  DOWNLOAD_HELP:
    'Download everything the portal keeps about you (profile, roles, sessions, sign-ins, audit events, notifications, feedback, groups, passkeys and trusted browsers) as one JSON file.',
  DOWNLOAD: 'Download my data',
  DOWNLOADING: 'Downloading…',
  DOWNLOADED: 'Your data has been downloaded.',
  DOWNLOAD_FAILED: 'Your data could not be downloaded.',
  retention: (auditDays: number, signInDays: number) =>
    `Your organisation keeps audit events ${auditDays} days and your sign-in history ${signInDays} days; older ones are deleted every day.`,
  DELETE: 'Delete my account',
  DELETE_TITLE: 'Delete your account?',
  DELETE_QUESTION:
    'Your account will be erased for good: your name, e-mail address, sessions, passkeys, trusted browsers, recovery codes, sign-in history, notifications and feedback are deleted, and the audit log shows you as "Erased user". You will be signed out. This cannot be undone.',
  DELETE_CONFIRM: 'Delete my account',
  DELETE_FAILED: 'Your account could not be deleted.',
  REFUSED_OFF: "Your organisation does not let members delete their own account. Ask your organisation's site admin.",
  REFUSED_DIRECTORY: "Your organisation's directory manages your account: ask your administrator to remove it there.",
  REFUSED_LAST_SITE_ADMIN:
    'You are the last active site admin of your organisation: make another member site admin before deleting your account.',
  REFUSED_SUPPORT: 'E-Support accounts are not deleted here.',
} as const;
