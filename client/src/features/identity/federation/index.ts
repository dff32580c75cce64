/** The Single Sign-On page (route users/sso). */
export { SsoPage } from './components/SsoPage';
