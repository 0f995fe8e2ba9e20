import { PlaceholderPage } from '../placeholder/placeholder-page';

/** Being built (issue in progress). */
export default function IntegrationsPage() {
  return <PlaceholderPage titleKey="pages.queueIntegration" />;
}
