/**
 * Rules and texts of the application shell (spec 001 §2.8-2.10, §4, §5, §8, §9) that the server and
 * the client both apply: the contact form is validated with the same rule on both sides.
 */

/** Spec 001 §5: contact form messages. */
export const CONTACT_MESSAGES = {
  NAME_REQUIRED: 'Name is required',
  EMAIL_REQUIRED: 'Email is required',
  EMAIL_INVALID: 'Please enter a valid email',
  SUBJECT_REQUIRED: 'Subject is required',
  MESSAGE_REQUIRED: 'Message is required',
  INVALID_CHARACTERS: 'Invalid characters detected',
  SENT: 'Your message has been sent successfully. We will get back to you soon.',
  FAILED: 'Failed to send message. Please try again later.',
} as const;

/** Spec 001 §5 and §8: feedback dialog. */
export const FEEDBACK_MESSAGES = {
  TITLE_REQUIRED: 'Please type in a title.',
  CONTENT_REQUIRED: 'Please type in some content.',
  RECEIVED: 'Thank you. Your feedback has been received.',
} as const;

/** Limits of the shell's forms (not fixed by the specification beyond rows and widths). */
export const SHELL_LIMITS = {
  CONTACT_NAME_MAX: 200,
  CONTACT_EMAIL_MAX: 100,
  CONTACT_SUBJECT_MAX: 200,
  CONTACT_MESSAGE_MAX: 5000,
  FEEDBACK_TITLE_MAX: 200,
  FEEDBACK_CONTENT_MAX: 5000,
  ANNOUNCEMENT_TITLE_MAX: 200,
  ANNOUNCEMENT_CONTENT_MAX: 10000,
  /** Spec 001 §9. */
  FEEDBACK_CONTENT_ROWS: 10,
  CONTACT_MESSAGE_ROWS: 8,
  CONTACT_DIALOG_WIDTH: '800px',
  CONTACT_DIALOG_MAX_WIDTH: '90vw',
  MENU_SEARCH_RESET_MS: 500,
  MENU_AUTO_HIDE_DELAY_MS: 100,
  HEADER_PADDING_PX: 70,
  HEADER_PADDING_WITH_NOTICE_PX: 110,
  LOADING_BAR_COLOR: '#29d',
} as const;

/**
 * Markup refused in name, subject and message (spec 001 §5): script tags, javascript: URLs, inline
 * event handlers, and iframe, object or embed markup, in any case. It looks for markup, not words: an
 * event handler is an on…= attribute inside a tag (`<img src=x onerror=…>`, `<svg/onload=…>`), so plain
 * text such as "Question one = yes" or "online=true" passes; so do "<", ">" and "object" in prose.
 */
const DANGEROUS_MARKUP: RegExp[] = [
  // <script …>, </script>
  /<\s*\/?\s*script\b/i,
  // a javascript: URL (the scheme, possibly spaced out as browsers tolerate)
  /\bjavascript\s*:/i,
  // an on…= attribute inside a tag: '<' and a tag name, then, before any '>', a separator and on…=
  /<\s*[a-z][a-z0-9-]*\b[^>]*[\s/"']on[a-z]+\s*=/i,
  // <iframe …>, <object …>, <embed …> and their closing tags
  /<\s*\/?\s*(iframe|object|embed)\b/i,
];

export function containsDangerousMarkup(value: string): boolean {
  return DANGEROUS_MARKUP.some((re) => re.test(value));
}

/** An e-mail of the form local@domain.tld with no spaces. */
export const CONTACT_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface ContactMessage {
  name: string;
  email: string;
  subject: string;
  message: string;
}

export type ContactErrors = Partial<Record<keyof ContactMessage, string>>;

/** The contact form's rule, field by field: the first failing message of each field. */
export function validateContactMessage(input: Partial<Record<keyof ContactMessage, unknown>>): ContactErrors {
  const errors: ContactErrors = {};
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const required: Array<[keyof ContactMessage, string]> = [
    ['name', CONTACT_MESSAGES.NAME_REQUIRED],
    ['email', CONTACT_MESSAGES.EMAIL_REQUIRED],
    ['subject', CONTACT_MESSAGES.SUBJECT_REQUIRED],
    ['message', CONTACT_MESSAGES.MESSAGE_REQUIRED],
  ];
  for (const [field, message] of required) if (!text(input[field])) errors[field] = message;
  if (!errors.email && !CONTACT_EMAIL_PATTERN.test(text(input.email))) errors.email = CONTACT_MESSAGES.EMAIL_INVALID;
  for (const field of ['name', 'subject', 'message'] as const) {
    if (!errors[field] && containsDangerousMarkup(text(input[field])))
      errors[field] = CONTACT_MESSAGES.INVALID_CHARACTERS;
  }
  return errors;
}

/** System information (spec 001 §3, §4). */
export const SYSTEM_EVENT_TYPES = ['data-sync-update', 'com-engine', 'application-deployment'] as const;
export type SystemEventType = (typeof SYSTEM_EVENT_TYPES)[number];
export const SYSTEM_STATUSES = ['inProgress', 'completed', 'failed', 'scheduled'] as const;
export type SystemStatus = (typeof SYSTEM_STATUSES)[number];

/** Where the announcement banner shows (spec 001 §4). */
export function isAnnouncementPath(pathname: string): boolean {
  return pathname === '/portfolios' || pathname.startsWith('/corporate-actions-view');
}

/** Local-storage keys of the shell's preferences (spec 001 §9). */
export const SHELL_STORAGE_KEYS = {
  COMPACT_MODE: 'compactMode',
  SERVER_CHOICE: 'serverChoice',
  ENGINE_CHOICE: 'engineChoice',
} as const;

/** Environment name in which the two extra cog options appear (spec 001 §2.4). */
export const DEVELOP_ENV = 'develop';
