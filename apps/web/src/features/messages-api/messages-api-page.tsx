import { PlaceholderPage } from '../placeholder/placeholder-page';

/** Being built (issue in progress). */
export default function MessagesApiPage() {
  return <PlaceholderPage titleKey="pages.messagesApi" />;
}
