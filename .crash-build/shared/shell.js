"use strict";
/**
 * Rules and texts of the application shell (spec 001 §2.8-2.10, §4, §5, §8, §9) that the server and
 * the client both apply: the contact form is validated with the same rule on both sides.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEVELOP_ENV = exports.SHELL_STORAGE_KEYS = exports.SYSTEM_STATUSES = exports.SYSTEM_EVENT_TYPES = exports.CONTACT_EMAIL_PATTERN = exports.SHELL_LIMITS = exports.FEEDBACK_MESSAGES = exports.CONTACT_MESSAGES = void 0;
exports.containsDangerousMarkup = containsDangerousMarkup;
exports.validateContactMessage = validateContactMessage;
exports.isAnnouncementPath = isAnnouncementPath;
/** Spec 001 §5: contact form messages. */
exports.CONTACT_MESSAGES = {
    NAME_REQUIRED: 'Name is required',
    EMAIL_REQUIRED: 'Email is required',
    EMAIL_INVALID: 'Please enter a valid email',
    SUBJECT_REQUIRED: 'Subject is required',
    MESSAGE_REQUIRED: 'Message is required',
    INVALID_CHARACTERS: 'Invalid characters detected',
    SENT: 'Your message has been sent successfully. We will get back to you soon.',
    FAILED: 'Failed to send message. Please try again later.',
};
/** Spec 001 §5 and §8: feedback dialog. */
exports.FEEDBACK_MESSAGES = {
    TITLE_REQUIRED: 'Please type in a title.',
    CONTENT_REQUIRED: 'Please type in some content.',
    RECEIVED: 'Thank you. Your feedback has been received.',
};
/** Limits of the shell's forms (not fixed by the specification beyond rows and widths). */
exports.SHELL_LIMITS = {
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
};
/**
 * Markup refused in name, subject and message (spec 001 §5): script tags, javascript: URLs, inline
 * event handlers (on…=), and iframe, object or embed markup, in any case.
 */
const DANGEROUS_MARKUP = [
    /<\s*\/?\s*script\b/i,
    /javascript\s*:/i,
    /\bon[a-z]+\s*=/i,
    /<\s*\/?\s*(iframe|object|embed)\b/i,
];
function containsDangerousMarkup(value) {
    return DANGEROUS_MARKUP.some((re) => re.test(value));
}
/** An e-mail of the form local@domain.tld with no spaces. */
exports.CONTACT_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The contact form's rule, field by field: the first failing message of each field. */
function validateContactMessage(input) {
    const errors = {};
    const text = (v) => (typeof v === 'string' ? v.trim() : '');
    const required = [
        ['name', exports.CONTACT_MESSAGES.NAME_REQUIRED],
        ['email', exports.CONTACT_MESSAGES.EMAIL_REQUIRED],
        ['subject', exports.CONTACT_MESSAGES.SUBJECT_REQUIRED],
        ['message', exports.CONTACT_MESSAGES.MESSAGE_REQUIRED],
    ];
    for (const [field, message] of required)
        if (!text(input[field]))
            errors[field] = message;
    if (!errors.email && !exports.CONTACT_EMAIL_PATTERN.test(text(input.email)))
        errors.email = exports.CONTACT_MESSAGES.EMAIL_INVALID;
    for (const field of ['name', 'subject', 'message']) {
        if (!errors[field] && containsDangerousMarkup(text(input[field])))
            errors[field] = exports.CONTACT_MESSAGES.INVALID_CHARACTERS;
    }
    return errors;
}
/** System information (spec 001 §3, §4). */
exports.SYSTEM_EVENT_TYPES = ['data-sync-update', 'com-engine', 'application-deployment'];
exports.SYSTEM_STATUSES = ['inProgress', 'completed', 'failed', 'scheduled'];
/** Where the announcement banner shows (spec 001 §4). */
function isAnnouncementPath(pathname) {
    return pathname === '/portfolios' || pathname.startsWith('/corporate-actions-view');
}
/** Local-storage keys of the shell's preferences (spec 001 §9). */
exports.SHELL_STORAGE_KEYS = {
    COMPACT_MODE: 'compactMode',
    SERVER_CHOICE: 'serverChoice',
    ENGINE_CHOICE: 'engineChoice',
};
/** Environment name in which the two extra cog options appear (spec 001 §2.4). */
exports.DEVELOP_ENV = 'develop';
//# sourceMappingURL=shell.js.map