/** What other features may use of the logo feature. */
export { LogoUploader } from './components/LogoUploader';
