import { PLAN_FEATURES, type PresentedUser } from '@atende/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { SideMenu } from './side-menu';

beforeAll(() => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});

function userWith(overrides: Partial<PresentedUser> & { plan?: Partial<Record<(typeof PLAN_FEATURES)[number], boolean>> } = {}): PresentedUser {
  const { plan, ...rest } = overrides;
  const allOn = Object.fromEntries(PLAN_FEATURES.map((feature) => [feature, true]));
  return buildUser(1, { name: 'Ana', email: 'ana@example.com', language: 'en', companyId: 1, ...rest, company: buildUserCompany({ id: 1 }, { ...allOn, ...plan }) });
}

function renderMenu(user: PresentedUser) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <SessionProvider onSessionEnd={() => undefined}>
        <MemoryRouter>
          <SideMenu user={user} collapsed={false} />
        </MemoryRouter>
      </SessionProvider>
    </QueryClientProvider>,
  );
}

describe('side menu gating', () => {
  it('a plain user sees the main items only: no dashboard, no admin group', () => {
    renderMenu(userWith());
    expect(screen.getByTestId('menu-tickets')).toBeTruthy();
    expect(screen.queryByTestId('menu-dashboard')).toBeNull();
    expect(screen.queryByTestId('menu-group-admin')).toBeNull();
    expect(screen.queryByTestId('menu-connections')).toBeNull();
    expect(screen.queryByTestId('menu-subscription')).toBeNull();
  });

  it('an admin sees the admin group, with plan-gated items following the plan', () => {
    renderMenu(userWith({ profile: 'admin', plan: { useOpenAi: false, useExternalApi: false } }));
    expect(screen.getByTestId('menu-dashboard')).toBeTruthy();
    expect(screen.getByTestId('menu-group-admin')).toBeTruthy();
    expect(screen.getByTestId('menu-connections')).toBeTruthy();
    expect(screen.queryByTestId('menu-prompts')).toBeNull();
    expect(screen.queryByTestId('menu-messagesApi')).toBeNull();
    expect(screen.getByTestId('menu-queueIntegration')).toBeTruthy();
    // Billing: Financeiro, then the subscription page next to it.
    const admin = screen.getByTestId('menu-group-admin');
    const keys = [...admin.querySelectorAll('[data-testid^="menu-"]')].map((node) => node.getAttribute('data-testid'));
    expect(keys.slice(keys.indexOf('menu-financeiro'), keys.indexOf('menu-financeiro') + 2)).toEqual(['menu-financeiro', 'menu-subscription']);
    expect(screen.queryByTestId('menu-announcements')).toBeNull();
  });

  it('plan flags hide kanban, schedules and internal chat; the super flag shows announcements', () => {
    renderMenu(userWith({ profile: 'admin', super: true, plan: { useKanban: false, useSchedules: false, useInternalChat: false } }));
    expect(screen.queryByTestId('menu-kanban')).toBeNull();
    expect(screen.queryByTestId('menu-schedules')).toBeNull();
    expect(screen.queryByTestId('menu-chats')).toBeNull();
    expect(screen.getByTestId('menu-announcements')).toBeTruthy();
  });

  it('campaigns show with the plan flag only: the local cshow flag opens nothing the server would refuse', () => {
    localStorage.setItem('cshow', 'true');
    const { unmount } = renderMenu(userWith({ profile: 'admin', plan: { useCampaigns: false } }));
    expect(screen.queryByTestId('menu-group-campaigns')).toBeNull();
    unmount();
    localStorage.removeItem('cshow');
    renderMenu(userWith({ profile: 'admin', plan: { useCampaigns: true } }));
    expect(screen.getByTestId('menu-group-campaigns')).toBeTruthy();
  });
});
