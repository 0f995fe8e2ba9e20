import { ERROR_CODES, MENU_ITEMS, VALIDATION_MESSAGES } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { es } from './es';
import { pt } from './pt';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [prefix];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('catalogues', () => {
  it('pt, en and es have exactly the same keys, none empty', () => {
    const ptKeys = keys(pt).sort();
    expect(keys(en).sort()).toEqual(ptKeys);
    expect(keys(es).sort()).toEqual(ptKeys);
    for (const catalogue of [pt, en, es]) {
      for (const key of ptKeys) {
        const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], catalogue);
        expect(typeof value === 'string' && value.trim().length > 0, key).toBe(true);
      }
    }
  });

  it('translate every error code, every menu item and every validation message', () => {
    for (const catalogue of [pt, en, es]) {
      for (const code of ERROR_CODES) expect(catalogue.errors, code).toHaveProperty(code);
      for (const item of MENU_ITEMS) expect(catalogue.menu, item.key).toHaveProperty(item.key);
      for (const key of Object.keys(VALIDATION_MESSAGES)) expect(catalogue.validation, key).toHaveProperty(key.replace('validation.', ''));
    }
  });

  it('gives one thing one name in every language: menu entry, page title and pop-up say the same; no two menu entries share a name', () => {
    for (const [language, catalogue] of Object.entries({ pt, en, es })) {
      const quickMessages = [catalogue.menu.quickMessages, catalogue.pages.quickMessages, catalogue.quickMessages.title, catalogue.conversation.composer.quickAnswers];
      expect(new Set(quickMessages).size, `${language}: ${quickMessages.join(' / ')}`).toBe(1);
      const prompts = [catalogue.menu.prompts, catalogue.pages.prompts, catalogue.prompts.title, catalogue.settings.plans.features.useOpenAi];
      expect(new Set(prompts).size, `${language}: ${prompts.join(' / ')}`).toBe(1);
      expect(catalogue.menu.campaignsConfig, language).toBe(catalogue.pages.campaignsConfig);
      // Every page with a heading: the menu entry that opens it, its browser title and its heading.
      const headings: Record<string, string> = {
        dashboard: catalogue.dashboard.title,
        connections: catalogue.connections.title,
        tags: catalogue.tags.title,
        contacts: catalogue.contacts.title,
        helps: catalogue.helps.title,
        users: catalogue.users.title,
        queueIntegration: catalogue.integrations.title,
        settings: catalogue.settings.title,
        kanban: catalogue.kanban.title,
        financeiro: catalogue.invoices.title,
        queues: catalogue.queues.title,
        announcements: catalogue.announcements.title,
        chats: catalogue.chats.title,
        contactLists: catalogue.contactLists.title,
      };
      for (const [page, heading] of Object.entries(headings)) {
        const names = [catalogue.menu[page as keyof typeof catalogue.menu], catalogue.pages[page as keyof typeof catalogue.pages], heading];
        expect(new Set(names).size, `${language} ${page}: ${names.join(" / ")}`).toBe(1);
      }
      const shown = MENU_ITEMS.map((item) => catalogue.menu[item.key as keyof typeof catalogue.menu]);
      expect(shown.filter((name, index) => shown.indexOf(name) !== index), language).toEqual([]);
    }
  });

  it('keeps the spec’s Portuguese strings verbatim', () => {
    expect(pt.session.usedElsewhere).toBe('Sua conta foi acessada em outro computador.');
    expect(pt.login.expired).toBe('Opss! Sua assinatura venceu {{date}}. Entre em contato com o Suporte para mais informações!');
  });
});
