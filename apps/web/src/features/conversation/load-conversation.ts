/** The conversation pane's chunk: loaded when a ticket is opened, or at boot on a /tickets/:id address (app/routes.tsx). */
export const loadConversation = () => import('./conversation');
