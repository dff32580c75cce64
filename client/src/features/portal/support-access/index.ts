/** Support access: the requests page, the user list's request form and the banner of a support-access session. */
import { SUPPORT_ACCESS_TEXTS } from './support-access-texts';

export { SupportAccessPage } from './components/SupportAccessPage';
export { RequestSupportAccessDialog } from './components/RequestSupportAccessDialog';
export { SupportSessionBanner } from './components/SupportSessionBanner';
/** The user list's row menu item that opens the request form. */
export const SUPPORT_ACCESS_MENU = SUPPORT_ACCESS_TEXTS.REQUEST_MENU;
