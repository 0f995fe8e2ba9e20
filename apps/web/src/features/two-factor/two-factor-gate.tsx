import { lazy, Suspense, type ReactNode } from 'react';
import { useSession } from '../../api/session';
import { PageLoading } from '../../components/page-loading';
import { companyRequiresTwoFactor, useTwoFactorStatus } from './two-factor-queries';

const TwoFactorRequiredPage = lazy(() => import('./two-factor-required-page'));

/**
 * The app behind a company's "require two-factor" switch: a user without a second factor
 * gets the set-up page instead (the server limits such a session to it anyway). Companies
 * without the switch ask nothing more.
 */
export function TwoFactorGate({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const required = companyRequiresTwoFactor(user?.company?.settings);
  const status = useTwoFactorStatus(required);
  if (!required) return children;
  if (status.isPending) return <PageLoading />;
  if (status.data && !status.data.enabled) {
    return (
      <Suspense fallback={<PageLoading />}>
        <TwoFactorRequiredPage />
      </Suspense>
    );
  }
  return children;
}
