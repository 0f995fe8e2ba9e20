import { featureTexts } from '../../i18n/catalogue';

/** Texts of the top bar's notifications popover, mounted under `notifications.` in every language. */
export const notificationsTexts = featureTexts({
  pt: {
    title: 'Notificações',
    bell: 'Notificações ({{count}})',
    empty: 'Nenhum atendimento precisa de você agora.',
    loading: 'Carregando notificações...',
    pending: 'Aguardando',
    unread: '{{count}} não lidas',
    more: 'E mais {{count}} na lista de atendimentos.',
    enableDesktop: 'Ativar notificações na área de trabalho',
    desktopDenied: 'As notificações na área de trabalho estão bloqueadas neste navegador.',
    desktopTitle: 'Nova mensagem de {{name}}',
    appTitle: 'Atende',
  },
  en: {
    title: 'Notifications',
    bell: 'Notifications ({{count}})',
    empty: 'No ticket needs you right now.',
    loading: 'Loading notifications...',
    pending: 'Waiting',
    unread: '{{count}} unread',
    more: 'And {{count}} more in the tickets list.',
    enableDesktop: 'Turn on desktop notifications',
    desktopDenied: 'Desktop notifications are blocked in this browser.',
    desktopTitle: 'New message from {{name}}',
    appTitle: 'Atende',
  },
  es: {
    title: 'Notificaciones',
    bell: 'Notificaciones ({{count}})',
    empty: 'Ningún ticket te necesita ahora.',
    loading: 'Cargando notificaciones...',
    pending: 'En espera',
    unread: '{{count}} sin leer',
    more: 'Y {{count}} más en la lista de tickets.',
    enableDesktop: 'Activar notificaciones de escritorio',
    desktopDenied: 'Las notificaciones de escritorio están bloqueadas en este navegador.',
    desktopTitle: 'Nuevo mensaje de {{name}}',
    appTitle: 'Atende',
  },
});
