/** Re-authentication before sensitive actions: the dialog the app mounts once. */
export { StepUpDialog } from './components/StepUpDialog';
