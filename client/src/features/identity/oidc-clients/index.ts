/** The Applications tab of the organisation settings: the applications of the portal's OpenID provider. */
export { ApplicationsPage } from './components/ApplicationsPage';
