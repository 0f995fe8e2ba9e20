import { PlaceholderPage } from '../placeholder/placeholder-page';

/** Being built (issue in progress). */
export default function PromptsPage() {
  return <PlaceholderPage titleKey="pages.prompts" />;
}
