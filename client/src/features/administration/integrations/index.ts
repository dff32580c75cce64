/** The Integrations page (route users/integrations): API keys, webhooks, audit log streams. */
export { IntegrationsPage } from './components/IntegrationsPage';
