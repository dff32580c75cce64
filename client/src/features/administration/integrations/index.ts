/** The Integrations page (route users/integrations): API keys, webhooks, audit log streams. */
export { IntegrationsPage } from './components/IntegrationsPage';
/** A secret shown this once, with a copy button (also the client secret of an application). */
export { SecretShownOnce } from './components/SecretShownOnce';
