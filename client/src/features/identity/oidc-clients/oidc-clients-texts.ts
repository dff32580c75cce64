/** The words of the Applications tab of the organisation settings. */
export const OIDC_CLIENTS_TEXTS = {
  TITLE: 'Applications',
  INTRO:
    "Register the applications that sign people in with their portal account (OpenID Connect). Only this organisation's members can sign in to them, and each member agrees once to what the application may read.",
  DEPLOYMENT_INTRO:
    "With no organisation chosen, these are the deployment's own applications: every organisation's members can sign in to them, without being asked to agree.",
  ISSUER: 'Issuer',
  ISSUER_HELP:
    'Configure your applications with this issuer: they find every endpoint of the portal at its /.well-known/openid-configuration.',
  COPY_ISSUER: 'Copy issuer',
  REGISTER: 'Register application',
  NAME: 'Application name',
  TYPE: 'Type',
  TYPES: {
    confidential: 'Confidential: a server that keeps a secret',
    public: 'Public: a native or browser app without a secret',
  },
  TYPE_NAMES: { confidential: 'Confidential', public: 'Public' },
  REDIRECT_URIS: 'Redirect URIs',
  REDIRECT_URIS_HELP:
    'One per line, matched exactly. Use https://; a public application may also use http:// on 127.0.0.1, [::1] or localhost.',
  POST_LOGOUT_URIS: 'Post-logout redirect URIs (optional)',
  POST_LOGOUT_URIS_HELP: 'One per line: where the application may send people after they sign out.',
  LOGOUT_URI: 'Back-channel logout URI (optional)',
  LOGOUT_URI_HELP: 'The portal posts a logout token here when a session that signed in to the application ends.',
  SECRET_TITLE: 'Copy the client secret now',
  SECRET: 'This is the only time the secret is shown. Store it in the application, which sends it with its client ID.',
  COPY: 'Copy secret',
  clientIdNote: (clientId: string) => `Client ID: ${clientId}`,
  REGISTERED_PUBLIC: 'The application was registered. It has no secret: it signs in with PKCE.',
  NONE: 'No applications yet.',
  EDIT: 'Edit',
  EDIT_TITLE: 'Edit application',
  SAVED: 'The application was saved.',
  ROTATE: 'Rotate secret',
  ROTATE_TITLE: 'Rotate client secret',
  rotateQuestion: (name: string) =>
    `Make a new secret for "${name}"? The current secret stops working at once: put the new one in the application straight away.`,
  REMOVE: 'Remove',
  REMOVE_TITLE: 'Remove application',
  removeQuestion: (name: string) =>
    `Remove "${name}"? Removing revokes every grant and token: everyone signed in to it is signed out at once, and it can no longer sign anyone in.`,
  REMOVED: 'The application was removed.',
  FAILED: 'The applications could not be changed. Please try again.',
  UNAVAILABLE: 'The applications are not available right now. Please try again later.',
  NEVER: 'Never',
  CANCEL: 'Cancel',
  SAVE: 'Save',
  ACTIONS: 'Actions',
  COLUMNS: {
    NAME: 'Name',
    TYPE: 'Type',
    CLIENT_ID: 'Client ID',
    REDIRECT_URIS: 'Redirect URIs',
    LAST_USED: 'Last used',
  },
} as const;
