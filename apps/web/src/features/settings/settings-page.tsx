import { PlaceholderPage } from '../placeholder/placeholder-page';

/** Being built (issue in progress). */
export default function SettingsPage() {
  return <PlaceholderPage titleKey="pages.settings" />;
}
