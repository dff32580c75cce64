/** The administrator's home page shows the headline figures of the last 30 days. */
export { InsightsHeadline } from './components/InsightsHeadline';
